import { hashSeed, type Random } from '../../domain/random.ts';
import { methodExcludesWinner } from '../../domain/results/win-by.ts';
import type { ResultAthlete, ResultEvent, ResultHeat } from '../results.ts';
import { byOrder, type Entrant, type EventBuild, resultStatusOf } from './event-build.ts';
import { clamp } from './numbers.ts';

/**
 * Combat: a card of bouts in matching weight classes; each completed bout has a winner and a
 * method.
 */

type Methods = ReadonlyArray<readonly [string, number]>;

/** How fights end, with rough frequencies per promotion. */
const METHODS: Readonly<Record<string, Methods>> = {
  bkfc: [
    ['KO', 30],
    ['TKO', 26],
    ['Unanimous Decision', 16],
    ['Split Decision', 5],
    ['Majority Decision', 2],
    ['Decision', 2],
    ['Medical Stoppage', 5],
    ['Technical Decision', 2],
    ['Referee Technical Decision', 1],
    ['Disqualification', 1.5],
    ['Forfeit', 0.5],
    ['Draw', 0.7],
    ['Majority Draw', 0.7],
    ['Split Draw', 0.5],
    ['Technical Draw', 0.3],
    ['No Contest', 1],
  ],
  byb: [
    ['KO', 30],
    ['TKO', 28],
    ['Unanimous Decision', 15],
    ['Split Decision', 5],
    ['Majority Decision', 2],
    ['Medical Stoppage', 5],
    ['Technical Decision', 2],
    ['Referee Technical Decision', 1.5],
    ['Disqualification', 1.5],
    ['Forfeit', 0.5],
    ['Draw', 1],
    ['Split Draw', 0.5],
    ['Unanimous Draw', 0.3],
    ['No Contest', 1],
  ],
  powerslap: [
    ['KO', 32],
    ['TKO', 20],
    ['Unanimous Decision', 24],
    ['Split Decision', 8],
    ['Majority Decision', 5],
    ['Decision', 2],
    ['Disqualification', 3],
    ['Medical Stoppage', 2],
    ['Forfeit', 1],
    ['Draw', 1.5],
    ['Majority Draw', 1],
    ['No Contest', 1],
  ],
  lux: [
    ['KO', 12],
    ['TKO', 22],
    ['Submission', 22],
    ['Technical Submission', 3],
    ['Unanimous Decision', 20],
    ['Split Decision', 8],
    ['Majority Decision', 2.5],
    ['Medical Stoppage', 2],
    ['Technical Decision', 1.5],
    ['Referee Technical Decision', 1],
    ['Disqualification', 1],
    ['Unanimous Draw', 0.5],
    ['Split Draw', 0.5],
    ['Majority Draw', 0.5],
    ['Technical Draw', 0.3],
    ['No Contest', 1.5],
  ],
  // Freestyle wrestling has no draws; technical superiority and falls are sent as the promotion words them.
  raf: [
    ['Decision', 30],
    ['Technical Superiority', 28],
    ['Pin', 12],
    ['Fall', 4],
    ['Technical Decision', 5],
    ['Forfeit', 3],
    ['Disqualification', 3],
    ['Medical Stoppage', 2],
    ['Injury Default', 2],
    ['No Contest', 0.5],
  ],
};

/**
 * Rare outcomes each promotion shows early (every fourth completed bout until the list is used up), so
 * that even the default dataset holds every published method, draws and no contests included.
 */
const SHOWCASE: Readonly<Record<string, readonly string[]>> = {
  bkfc: ['Medical Stoppage', 'Majority Draw', 'Referee Technical Decision', 'No Contest', 'Forfeit', 'Decision'],
  byb: ['Technical Decision', 'Split Draw', 'Disqualification', 'Majority Decision', 'Unanimous Draw'],
  powerslap: ['Draw', 'Disqualification', 'Split Decision', 'No Contest', 'Forfeit'],
  lux: [
    'Submission',
    'Technical Submission',
    'Technical Draw',
    'Unanimous Draw',
    'Referee Technical Decision',
    'Split Decision',
  ],
  raf: ['Technical Superiority', 'Pin', 'Technical Decision', 'Forfeit', 'Medical Stoppage'],
};

/** Other spellings feeds use for the same method; the API publishes the listed spelling. */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  KO: ['Knockout', 'K.O.', 'ko'],
  TKO: ['T.K.O.', 'tko', 'Technical Knockout'],
  Submission: ['SUB', 'submission'],
  'Unanimous Decision': ['unanimous decision', 'UD'],
  'Split Decision': ['split decision', 'SD'],
  'Majority Decision': ['MD'],
  Disqualification: ['DQ'],
  'No Contest': ['NC', 'no contest'],
};

/** Per competition: its method frequencies and the showcase still to come. */
export class FightBook {
  readonly methods: Methods;
  readonly showcase: string[];

  completed: number;

  /** A book `completed` bouts in: the showcase has given one outcome every fourth bout from the first. */
  constructor(key: string, completed = 0) {
    this.completed = completed;
    this.methods = METHODS[key] ?? [['Decision', 1]];
    this.showcase = (SHOWCASE[key] ?? []).slice(Math.ceil(completed / 4));
  }

  method(rng: Random): string {
    this.completed++;
    const showcased = this.completed % 4 === 1 ? this.showcase.shift() : undefined;
    const method = showcased ?? rng.weighted(this.methods);
    const spellings = SPELLINGS[method];
    return spellings && rng.chance(0.08) ? rng.pick(spellings) : method;
  }
}

/** The two fighters an event is named after, of one weight class, if the name bills a main event. */
function billedPair(name: string, athletes: readonly ResultAthlete[]): [ResultAthlete, ResultAthlete] | null {
  const match = /: (.+) vs\. (.+)$/.exec(name);
  if (!match) return null;
  for (const a of athletes) {
    if (a.lastName !== match[1]) continue;
    const b = athletes.find((x) => x !== a && x.lastName === match[2] && x.weightClass === a.weightClass);
    if (b) return [a, b];
  }
  return null;
}

export function combat(b: EventBuild, event: ResultEvent, book: FightBook): void {
  const rng = b.rng;
  const round = event.rounds[0];
  if (!round) return;
  const bouts = round.heats.length;
  // Pair fighters within their weight class; leftovers fight across classes only if the card is short.
  const byClass = new Map<string, ResultAthlete[]>();
  for (const athlete of rng.shuffle(b.athletes)) {
    const group = byClass.get(athlete.weightClass ?? '');
    if (group) group.push(athlete);
    else byClass.set(athlete.weightClass ?? '', [athlete]);
  }
  // An event named after its main event ("BKFC 61: Smith vs. Jones") books that pairing last.
  const billed = billedPair(event.name, b.athletes);
  const isBilled = (athlete: ResultAthlete) => billed?.includes(athlete) ?? false;
  const pairs: Array<[ResultAthlete, ResultAthlete]> = [];
  for (const group of byClass.values()) {
    const free = group.filter((athlete) => !isBilled(athlete));
    for (let i = 0; i + 1 < free.length; i += 2) pairs.push([free[i] as ResultAthlete, free[i + 1] as ResultAthlete]);
  }
  const wanted = billed ? bouts - 1 : bouts;
  const card = rng.shuffle(pairs).slice(0, wanted);
  if (card.length < wanted) {
    // Too few pairs within a class: the rest fight across classes, grouped by class as far as it goes.
    const booked = new Set(card.flat());
    const rest = b.athletes
      .filter((a) => !booked.has(a) && !isBilled(a))
      .sort((x, y) =>
        (x.weightClass ?? '') < (y.weightClass ?? '') ? -1 : (x.weightClass ?? '') > (y.weightClass ?? '') ? 1 : 0,
      );
    for (let i = 0; card.length < wanted && i + 1 < rest.length; i += 2)
      card.push([rest[i] as ResultAthlete, rest[i + 1] as ResultAthlete]);
  }
  // Otherwise the main event, the last bout, has the strongest pairing.
  const pairStrength = (p: readonly [ResultAthlete, ResultAthlete]) => p[0].strength + p[1].strength;
  card.sort((x, y) => pairStrength(x) - pairStrength(y));
  if (billed) card.push(billed);

  const fighters = card.flat().sort((x, y) => y.strength - x.strength || (x.id < y.id ? -1 : 1));
  const entrantOf = new Map(fighters.map((athlete, i) => [athlete, b.add(athlete, i + 1, 'ACTIVE')]));
  const bouted = card.map((pair) => pair.map((athlete) => entrantOf.get(athlete) as Entrant));
  // A late withdrawal: an unbooked fighter of the same class steps in on short notice.
  if (card.length > 0 && rng.chance(0.25)) {
    const booked = new Set(fighters);
    const spares = b.athletes.filter((a) => !booked.has(a));
    // Never the billed main event, so the event name still holds.
    const bout = bouted[rng.int(0, Math.max(0, bouted.length - (billed && bouted.length > 1 ? 2 : 1)))] as Entrant[];
    const side = rng.int(0, 1);
    const out = bout[side] as Entrant;
    const spare = spares.find((a) => a.weightClass === out.athlete.weightClass) ?? spares[0];
    if (spare) {
      out.status = rng.chance(0.4) ? 'INJURED' : 'WITHDRAWN';
      bout[side] = b.add(spare, null, 'ALTERNATE');
    }
  }

  round.heats.forEach((heat, h) => {
    const bout = (bouted[h] ?? []).sort(byOrder);
    b.enter(heat, bout);
    const [favourite, underdog] = bout;
    if (heat.status !== 'COMPLETED' || !favourite || !underdog) return;
    const method = book.method(rng);
    const favouriteWins = rng.chance(
      clamp(0.5 + 0.25 * (favourite.athlete.strength - underdog.athlete.strength), 0.12, 0.88),
    );
    // Draws and no contests (in any spelling) name no winner.
    const noWinner = methodExcludesWinner(method);
    const [winner, loser] = favouriteWins ? [favourite, underdog] : [underdog, favourite];
    b.sink.heatResults.push({
      heatId: heat.id,
      winnerAthleteId: noWinner ? null : announcedWinner(heat, method, winner, loser).athlete.id,
      method,
      ...resultStatusOf(heat),
    });
  });
}

/**
 * The winner as announced. A decision's scorecards are now and then misread: the provisional result
 * names the loser, and the official one corrects it (RESULT_CHANGED). One decision in three, chosen by
 * the heat's id rather than the shared draws, so that the rest of the demo stays as it was.
 */
function announcedWinner(heat: ResultHeat, method: string, winner: Entrant, loser: Entrant): Entrant {
  const misread =
    heat.resultStatus === 'PROVISIONAL' &&
    /decision|^[SUM]D$/i.test(method) &&
    hashSeed('scorecard', heat.id) % 3 === 0;
  return misread ? loser : winner;
}
