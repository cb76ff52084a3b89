import type { AthletePlan } from './participants.ts';
import { type NameContext, numbered, type Profile, spec } from './profile.ts';

/** Combat: a card of bouts a night, named after its main event now and then. */

const COMBAT_PREFIX: Readonly<Record<string, readonly [string, number]>> = {
  bkfc: ['BKFC', 60],
  byb: ['BYB', 30],
  lux: ['LUX', 40],
  raf: ['RAF', 1],
  powerslap: ['Power Slap', 10],
};

function combatName(ctx: NameContext): string {
  const [prefix, base] = COMBAT_PREFIX[ctx.competition.key] ?? [ctx.competition.name, 1];
  if (ctx.rng.chance(0.25)) return `${prefix} Fight Night ${ctx.venue.event}`;
  const byClass = new Map<string, AthletePlan[]>();
  for (const athlete of ctx.athletes) {
    const group = byClass.get(athlete.weightClass ?? '') ?? [];
    group.push(athlete);
    byClass.set(athlete.weightClass ?? '', group);
  }
  const classes = [...byClass.values()].filter((group) => group.length >= 2);
  const [a, b] = classes.length > 0 ? ctx.rng.sample(ctx.rng.pick(classes), 2) : ctx.rng.sample(ctx.athletes, 2);
  return a && b ? `${prefix} ${base + ctx.seq}: ${a.lastName} vs. ${b.lastName}` : `${prefix} ${base + ctx.seq}`;
}

const combat = (
  tourName: string,
  spacingDays: number,
  boutMinutes: number,
  bouts: readonly [number, number],
): Profile => ({
  tourName,
  gender: 'men',
  spacingDays,
  startHours: [23, 0, 1],
  dayHours: 8,
  athletes: [28, 40],
  ages: [21, 38],
  rounds: (rng) => [spec('Main Card', numbered('Bout', rng.int(bouts[0], bouts[1])), boutMinutes, { gap: 5 })],
  name: combatName,
});

export const COMBAT_PROFILES: Readonly<Record<string, Profile>> = {
  bkfc: combat('BKFC', 14, 25, [8, 12]),
  byb: combat('BYB Extreme', 21, 25, [8, 11]),
  powerslap: combat('Power Slap League', 14, 10, [8, 14]),
  lux: combat('LUX Fight League', 21, 25, [8, 11]),
  raf: combat('Real American Freestyle', 30, 15, [8, 10]),
};
