import { ROTATION_COLOURS } from '../teams.ts';
import { numbered, type Profile, spec } from './profile.ts';

/** Athlete sports of formats of their own: bull riding, disc golf, a rotation league and swimming. */
export const OTHER_PROFILES: Readonly<Record<string, Profile>> = {
  pbr: {
    tourName: 'Unleash The Beast',
    gender: 'men',
    spacingDays: 7,
    startHours: [0, 1],
    dayHours: 4,
    athletes: [30, 40],
    rounds: () => [
      spec('Round 1', ['Heat 1', 'Heat 2'], 45, { gap: 15 }),
      spec('Round 2', ['Heat 1', 'Heat 2'], 45, { gap: 15, newDay: true }),
      spec('Championship Round', ['Heat 1'], 40, { gapBefore: 30 }),
    ],
  },
  dgpt: {
    tourName: 'Disc Golf Pro Tour MPO',
    gender: 'men',
    spacingDays: 7,
    startHours: [13, 14],
    dayHours: 9,
    athletes: [30, 40],
    rounds: () => [
      spec('Round 1', numbered('Card', 4), 60, { gap: 10 }),
      spec('Round 2', numbered('Card', 4), 60, { gap: 10, newDay: true }),
      spec('Round 3', numbered('Card', 4), 60, { gap: 10, newDay: true }),
      spec('Final Round', ['Chase Card', 'Lead Card'], 60, { gap: 10, newDay: true }),
    ],
  },
  athletesunlimited: {
    tourName: 'Athletes Unlimited Pro Leagues',
    gender: 'women',
    spacingDays: 7,
    startHours: [22, 23],
    dayHours: 5,
    athletes: [24, 40],
    rounds: (rng) =>
      ['Game 1', 'Game 2', 'Game 3'].map((name, i) => {
        const [a, b] = rng.sample(ROTATION_COLOURS, 2);
        return spec(name, [`Team ${a ?? 'Gold'} vs. Team ${b ?? 'Blue'}`], 150, { newDay: i > 0 });
      }),
    name: (ctx) => `${ctx.venue.event} Week ${ctx.venueCount}`,
  },
  // A swim meet runs men's and women's events apart: each demo tour is one field.
  swimming: {
    tourName: 'Pro Swim Series',
    gender: 'women',
    spacingDays: 21,
    startHours: [14, 15],
    dayHours: 10,
    athletes: [24, 40],
    ages: [16, 32],
    rounds: () => [
      spec('Heats', numbered('Heat', 6), 6, { gap: 3 }),
      spec('Semifinals', ['Semifinal 1', 'Semifinal 2'], 6, { gap: 5, gapBefore: 420 }),
      spec('Final', ['Final'], 6, { newDay: true }),
    ],
  },
};
