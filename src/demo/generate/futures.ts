import type { Competition } from '../../domain/competitions.ts';
import { FUTURE_TYPES, type FutureType } from '../../domain/enumerations.ts';
import { decimalToAmerican } from '../../domain/odds-format.ts';
import type { Random } from '../../domain/random.ts';
import type { FeedFuture, FeedFutureOdd, FeedFuturePrice, FeedTour, FeedTourYear } from './feed-items.ts';
import type { AthletePlan, TeamPlan } from './participants.ts';
import { iso } from './time.ts';

/** Futures on the current season: one per type, priced over the competition's strongest entrants. */

/** Future odds items per future (the field is cut to its strongest entrants). */
const MAX_FIELD = 20;

export function competitionFutures(
  competition: Competition,
  tour: FeedTour,
  tourYears: readonly FeedTourYear[],
  teams: readonly TeamPlan[],
  athletes: readonly AthletePlan[],
  rng: Random,
  nowYear: number,
): { futures: FeedFuture[]; futureOdds: FeedFutureOdd[] } {
  const currentYear = tourYears.find((y) => y.year === nowYear);
  const entrants: Entrant[] =
    competition.participants === 'teams'
      ? teams.map((t) => ({ id: t.id, name: t.seed.name, strength: t.strength, kind: 'team' as const }))
      : athletes.map((a) => ({ id: a.id, name: a.name, strength: a.strength, kind: 'athlete' as const }));
  const futures: FeedFuture[] = [];
  const odds: FeedFutureOdd[] = [];
  for (const type of FUTURE_TYPES) {
    const uuid = rng.uuid();
    const id = `${competition.key}:${uuid}`;
    futures.push({
      id,
      competition: competition.key,
      tourId: tour.id,
      tourYearId: `${tour.id}-${nowYear}`,
      type,
      gender: tour.gender,
      startDate: currentYear?.startDate ?? iso(Date.UTC(nowYear, 0, 1)),
      endDate: currentYear?.endDate ?? iso(Date.UTC(nowYear, 11, 31)),
      isMarketOpen: true,
    });
    odds.push(...futureOdds(type, id, uuid, entrants, rng));
  }
  return { futures, futureOdds: odds };
}

/** Rounds a decimal price to a bookmaker-style ladder within [1.01, 500]. */
function ladder(decimal: number): number {
  const d = Math.min(500, Math.max(1.01, decimal));
  const step = d < 2 ? 0.01 : d < 5 ? 0.05 : d < 10 ? 0.1 : d < 20 ? 0.5 : d < 50 ? 1 : d < 100 ? 5 : 10;
  return Math.max(1.01, Math.round(Math.round(d / step) * step * 100) / 100);
}

/** Probabilities of finishing in the top `k`: 1 - (1 - p)^e with e chosen so they sum to `target`. */
function topProbabilities(win: readonly number[], target: number): number[] {
  const at = (e: number) => win.map((p) => 1 - (1 - p) ** e);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  let lo = 1;
  let hi = 4096;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) < target) lo = mid;
    else hi = mid;
  }
  return at((lo + hi) / 2);
}

interface Entrant {
  id: string;
  name: string;
  strength: number;
  kind: 'athlete' | 'team';
}

function futureOdds(
  type: FutureType,
  futureId: string,
  futureUuid: string,
  entrants: readonly Entrant[],
  rng: Random,
): FeedFutureOdd[] {
  const field = [...entrants].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1)).slice(0, MAX_FIELD);
  const weights = field.map((e) => Math.exp(e.strength));
  const total = weights.reduce((a, b) => a + b, 0);
  const win = weights.map((w) => w / total);
  const n = field.length;
  const k: Record<FutureType, number> = {
    winner: 1,
    top2: 2,
    top3: 3,
    top5: 5,
    top10: 10,
    makeCut: n * 0.65,
    makePlayOdds: n * 0.5,
  };
  const target = Math.min(k[type], n * 0.9);
  const chances = type === 'winner' ? win : topProbabilities(win, target);
  const yesNo = type === 'makeCut' || type === 'makePlayOdds';
  const margin = type === 'winner' ? 1.25 : yesNo ? 1.05 : 1.15;
  return field.map((entrant, i) => {
    const q = Math.min(0.985, Math.max(0.002, chances[i] ?? 0.01));
    const american = rng.chance(0.25);
    const price = (outcomeName: string, probability: number): FeedFuturePrice => {
      // Books rarely price below 1.05 even on near-certainties.
      const decimal = ladder(1 / Math.min(0.95, probability * margin));
      return american
        ? { outcomeName, americanOdds: decimalToAmerican(decimal) }
        : { outcomeName, decimalOdds: decimal };
    };
    const odds = yesNo ? [price('Yes', q), price('No', 1 - q)] : [price('Yes', q)];
    return {
      id: `${futureUuid}-${entrant.id}`,
      futureId,
      name: entrant.name,
      ...(entrant.kind === 'athlete' ? { athleteId: entrant.id } : { teamId: entrant.id }),
      odds,
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Per competition.
