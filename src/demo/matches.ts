import type { Competition } from '../domain/competitions.ts';
import { priceMarket } from '../domain/pricing/market-generator.ts';
import type { PublishedPrice } from '../domain/pricing/published-price.ts';
import { fitMatchModel, generateTeamMarkets, MATCH_PRICING } from '../domain/pricing/team-markets.ts';
import {
  type JointScore,
  moneyline,
  periodDistribution,
  regularPeriods,
  simulateMatch,
  spreadLine,
  type TeamMatchModel,
  totalLine,
} from '../domain/pricing/team-match-model.ts';
import { hashSeed, Random } from '../domain/random.ts';
import { hammerByEnd, type MatchSide, matchScore, type PeriodScore, sideAhead } from '../domain/results/match-score.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';

/**
 * The demo's team matches (curling, table tennis, box lacrosse, 3-on-3 hockey, Jai Alai): each match
 * is played out once by the same score model that prices it, so results and odds agree. Seeded by
 * the event, so the rest of the demo data does not move.
 */

/** Home-ice and home-court edge, in the same units as the strengths' difference. */
const HOME_EDGE = 0.15;

const models = new Map<string, TeamMatchModel>();

/** The model of a match between teams of these strengths; null for formats without one. */
export function demoMatchModel(
  competition: Competition,
  homeStrength: number,
  awayStrength: number,
  firstHammer: MatchSide,
): TeamMatchModel | null {
  const pricing = MATCH_PRICING[competition.resultsFormat];
  if (!pricing) return null;
  // Rounded, so that the fits (a few milliseconds each for curling) are shared across matches.
  const homeWin =
    Math.round(
      Math.min(0.9, Math.max(0.1, 1 / (1 + Math.exp(-(0.9 * (homeStrength - awayStrength) + HOME_EDGE))))) * 100,
    ) / 100;
  const key = `${competition.key}|${homeWin}|${firstHammer}`;
  let model = models.get(key);
  if (!model) {
    // The format's typical total: goals in lacrosse and 3-on-3 hockey, points in curling.
    const expectedTotal = pricing.typicalTotal;
    model = fitMatchModel(
      competition.resultsFormat,
      { homeWin, ...(expectedTotal ? { expectedTotal } : {}) },
      firstHammer,
    );
    models.set(key, model);
  }
  return model;
}

/** Which side throws last in the first end (a coin toss, in the demo). */
export function demoFirstHammer(uuid: string): MatchSide {
  return hashSeed('hammer', uuid) % 2 === 0 ? 'home' : 'away';
}

/** The whole match, period by period, as it is played. */
export function demoMatchPath(model: TeamMatchModel, uuid: string): Array<{ home: number; away: number }> {
  const rng = new Random(hashSeed('match', uuid));
  return simulateMatch(model, () => rng.next());
}

/** The side that wins a played-out match. */
export function demoMatchWinner(
  competition: Competition,
  path: ReadonlyArray<{ home: number; away: number }>,
): MatchSide | null {
  return sideAhead(matchScore(competition.resultsFormat, path));
}

/** Table tennis lineups: each team's players by game, singles and doubles in a fixed order. */
const GAME_TYPES: ReadonlyArray<'singles' | 'doubles'> = [
  'doubles',
  'singles',
  'singles',
  'doubles',
  'singles',
  'singles',
  'singles',
];

export function tableTennisGame(index: number, home: readonly string[], away: readonly string[]) {
  const gameType = GAME_TYPES[index % GAME_TYPES.length] ?? 'singles';
  const pick = (roster: readonly string[]) =>
    gameType === 'doubles'
      ? `${roster[index % roster.length]} / ${roster[(index + 1) % roster.length]}`
      : (roster[index % roster.length] as string);
  return { gameType, homeLineup: pick(home), awayLineup: pick(away) };
}

/** A match in play: the scores of the periods completed, in order, and the period in play with its score so far. */
export interface MatchState {
  completed: readonly PeriodScore[];
  live: { index: number; score: PeriodScore; elapsed: number } | null;
}

/** The match's moneyline, spread and total (and its periods'), from its model, with a 5% margin. */
export function demoMatchMarkets(
  competition: Competition,
  uuid: string,
  model: TeamMatchModel,
  roundIds: readonly string[],
): Pick<Required<FeedDocument>, 'markets' | 'odds'> {
  const pricing = MATCH_PRICING[competition.resultsFormat];
  const generated = generateTeamMarkets({
    eventId: uuid,
    model,
    periods: roundIds.slice(0, pricing?.periods ?? 0).map((roundId, index) => ({ roundId, index })),
    periodMarkets: pricing?.periodMarkets ?? [],
    overround: 0.05,
    marginMethod: 'power',
  });
  return { markets: generated.markets, odds: generated.odds };
}

/**
 * A match in play keeps its markets and lines: the whole match's outcomes are priced again on the
 * score so far and what the model gives the rest of the match; the periods' stay as they opened.
 */
export function inPlayMatchOdds(
  markets: Pick<Required<FeedDocument>, 'markets' | 'odds'>,
  model: TeamMatchModel,
  state: MatchState,
): NonNullable<FeedDocument['odds']> {
  const joint = restOfMatch(model, state);
  return markets.markets.flatMap((market) => {
    if (market.roundId) return [];
    const outcomes = markets.odds.filter((o) => o.marketId === market.id);
    const fair = sideChances(market.teamMarketType ?? 'moneyline', market.line ?? undefined, joint);
    const prices = priceMarket(
      outcomes.map((o) => fair[o.side ?? ''] ?? 0),
      0.05,
      'power',
    );
    return outcomes.map((o, i) => ({ ...o, ...(prices[i] as PublishedPrice) }));
  });
}

/** Each side's chance in a match market, from the final score's distribution; pushes are left out. */
function sideChances(type: string, line: number | undefined, joint: readonly JointScore[]): Record<string, number> {
  const share = (a: number, b: number) => (a + b > 0 ? [a / (a + b), b / (a + b)] : [0.5, 0.5]);
  if (type === 'spread') {
    const s = spreadLine(joint, line ?? 0);
    const [home, away] = share(s.home, s.away);
    return { HOME: home as number, AWAY: away as number };
  }
  if (type === 'total') {
    const t = totalLine(joint, line ?? 0);
    const [over, under] = share(t.over, t.under);
    return { OVER: over as number, UNDER: under as number };
  }
  const ml = moneyline(joint);
  return { HOME: ml.home, DRAW: ml.draw, AWAY: ml.away };
}

/**
 * The final score's distribution (as the match score counts it) given the state of play: the score
 * so far plus the rest as the model plays it. Goals: Poisson for the regulation time left, then the
 * sudden-death overtime goal. Curling: the ends still to play from the hammer as it stands, extra ends
 * when level. Table tennis and Jai Alai: the games or sets still needed, the one in play from its
 * points so far (a race to the game's points, deuce aside).
 */
export function restOfMatch(model: TeamMatchModel, state: MatchState): JointScore[] {
  const regular = regularPeriods(model);
  const played = state.completed.reduce((sum, s) => ({ home: sum.home + s.home, away: sum.away + s.away }), {
    home: 0,
    away: 0,
  });
  if (model.kind === 'table-tennis' || model.kind === 'jai-alai') {
    const won = {
      home: state.completed.filter((s) => s.home > s.away).length,
      away: state.completed.filter((s) => s.away > s.home).length,
    };
    const period = moneyline(periodDistribution(model, 0));
    const p = period.home / (period.home + period.away);
    const target = model.kind === 'table-tennis' ? model.gamesToWin : model.setsToWin;
    let states = [{ ...won, p: 1 }];
    if (state.live) {
      const q = raceChance(
        model.pointHome,
        model.pointsToWin - state.live.score.home,
        model.pointsToWin - state.live.score.away,
      );
      states = [
        { home: won.home + 1, away: won.away, p: q },
        { home: won.home, away: won.away + 1, p: 1 - q },
      ];
    }
    return states.flatMap((s) =>
      raceFrom(s.home, s.away, p, target - s.home, target - s.away).map((f) => ({ ...f, p: f.p * s.p })),
    );
  }
  if (model.kind === 'curling') return restOfCurling(model, played, state.completed, regular);
  // Goals in the period in play stand; the rest of regulation is Poisson, then a sudden-death goal.
  const now = { home: played.home + (state.live?.score.home ?? 0), away: played.away + (state.live?.score.away ?? 0) };
  let rest: JointScore[] = [{ home: 0, away: 0, p: 1 }];
  if (state.completed.length + (state.live ? 1 : 0) <= regular) {
    // Time left in tenths of a period, so that a price holds for a while when nobody scores.
    const left = (regular - state.completed.length - Math.floor((state.live?.elapsed ?? 0) * 10) / 10) / regular;
    if (left > 0)
      rest = periodDistribution({ ...model, home: model.home * left, away: model.away * left, periods: 1 }, 0);
  }
  const homeTakesLevel = model.home / (model.home + model.away);
  const out: JointScore[] = [];
  for (const r of rest) {
    const home = now.home + r.home;
    const away = now.away + r.away;
    if (home !== away) out.push({ home, away, p: r.p });
    else
      out.push(
        { home: home + 1, away, p: r.p * homeTakesLevel },
        { home, away: away + 1, p: r.p * (1 - homeTakesLevel) },
      );
  }
  return out;
}

type Curling = Extract<TeamMatchModel, { kind: 'curling' }>;

/** Extra ends played out before a level match is shared out as even: by then almost nothing is left level. */
const EXTRA_ENDS = 8;

/**
 * Curling from the ends completed: end by end with the hammer as it stands (the side that scores
 * gives it up, a blank end keeps it), then extra ends while level. The end in play counts once over.
 */
function restOfCurling(
  model: Curling,
  played: PeriodScore,
  completed: readonly PeriodScore[],
  regular: number,
): JointScore[] {
  const law = { home: endLaw(model, 'home'), away: endLaw(model, 'away') };
  type State = { home: number; away: number; hammer: MatchSide; p: number };
  const end = (states: readonly State[]): State[] => {
    const next = new Map<string, State>();
    for (const s of states) {
      for (const o of law[s.hammer]) {
        const hammer: MatchSide = o.home > 0 ? 'away' : o.away > 0 ? 'home' : s.hammer;
        const key = `${s.home + o.home},${s.away + o.away},${hammer}`;
        const cell = next.get(key);
        if (cell) cell.p += s.p * o.p;
        else next.set(key, { home: s.home + o.home, away: s.away + o.away, hammer, p: s.p * o.p });
      }
    }
    return [...next.values()];
  };
  let states: State[] = [
    {
      home: played.home,
      away: played.away,
      hammer: hammerByEnd(model.firstHammer, completed).at(-1) as MatchSide,
      p: 1,
    },
  ];
  for (let e = completed.length; e < regular; e++) states = end(states);
  const out: JointScore[] = [];
  for (let extra = 0; states.length > 0; extra++) {
    const level = states.filter((s) => s.home === s.away);
    for (const s of states) if (s.home !== s.away) out.push({ home: s.home, away: s.away, p: s.p });
    if (extra === EXTRA_ENDS) {
      for (const s of level)
        out.push({ home: s.home + 1, away: s.away, p: s.p / 2 }, { home: s.home, away: s.away + 1, p: s.p / 2 });
      break;
    }
    states = end(level);
  }
  return out;
}

const laws = new WeakMap<TeamMatchModel, Record<MatchSide, JointScore[]>>();

/** An end's law with `hammer` throwing last: the first end of the same match with that side holding the hammer. Kept per model. */
function endLaw(model: Curling, hammer: MatchSide): JointScore[] {
  let known = laws.get(model);
  if (!known) {
    known = {
      home: periodDistribution({ ...model, firstHammer: 'home' }, 0),
      away: periodDistribution({ ...model, firstHammer: 'away' }, 0),
    };
    laws.set(model, known);
  }
  return known[hammer];
}

/** P(home wins a race), needing `home` and `away` more wins, each won by home with chance p. */
function raceChance(p: number, home: number, away: number): number {
  const need = Math.max(1, home);
  return raceFrom(0, 0, p, need, Math.max(1, away)).reduce((sum, f) => (f.home === need ? sum + f.p : sum), 0);
}

/** Final counts of a race from (home, away) when home needs `needHome` more wins and away `needAway`, each won by home with chance p. */
function raceFrom(home: number, away: number, p: number, needHome: number, needAway: number): JointScore[] {
  if (needHome <= 0 || needAway <= 0) return [{ home, away, p: 1 }];
  const out: JointScore[] = [];
  // Home takes its last needed win after k of away's: C(needHome - 1 + k, k) p^needHome (1-p)^k; and the other way round.
  for (const [need, other, chance, homeWins] of [
    [needHome, needAway, p, true],
    [needAway, needHome, 1 - p, false],
  ] as const) {
    let ways = 1;
    for (let k = 0; k < other; k++) {
      if (k > 0) ways = (ways * (need - 1 + k)) / k;
      const q = ways * chance ** need * (1 - chance) ** k;
      out.push(homeWins ? { home: home + need, away: away + k, p: q } : { home: home + k, away: away + need, p: q });
    }
  }
  return out;
}
