/**
 * An athlete event in play: what its results have decided, and the finishing-order model
 * of the rest. Athletes knocked out have their final places (a round's losers share a range of
 * places, quarter-final losers 5 to 8); those still in fill the top places. Their order is the model
 * of before the event restricted to them (independent race times: a sub-field of a Plackett-Luce or
 * gamma field is one of the same kind, with the same strengths), tilted by the heat in play.
 */

/** Places an athlete knocked out shares with the others out in the same round. */
export interface PlaceRange {
  from: number;
  to: number;
}

/** The heat in play: each athlete's standing so far (higher is better), and the share of the heat run. */
export interface HeatInPlay {
  standings: ReadonlyArray<{ athleteId: string; standing: number }>;
  progress: number;
}

export interface InPlayState {
  knockedOut: ReadonlyMap<string, PlaceRange>;
  heat?: HeatInPlay;
}

export interface InPlayField {
  /** The athletes still in, in the order given, and their chances of winning the event now (summing to 1). */
  athleteIds: string[];
  win: number[];
  /** The places of the athletes knocked out: certain. */
  decided: ReadonlyMap<string, PlaceRange>;
}

/** How far a heat's standings move the chances by its end: the leader's up to e^1.2 times, the last's down as much. */
export const FORM = 1.2;

/**
 * The field still in and its chances, from the chances before the event (`win`, one per athlete of
 * `athleteIds`) and the live state.
 */
export function inPlayField(athleteIds: readonly string[], win: readonly number[], state: InPlayState): InPlayField {
  const tilt = heatTilt(state.heat);
  const still = athleteIds.map((id, i) => ({ id, i })).filter(({ id }) => !state.knockedOut.has(id));
  const weights = still.map(({ id, i }) => (win[i] as number) * (tilt.get(id) ?? 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    athleteIds: still.map(({ id }) => id),
    win: weights.map((w) => w / total),
    decided: state.knockedOut,
  };
}

/**
 * Each athlete of the heat in play multiplied by e^(FORM × progress × d), d from 1 for the leader to
 * -1 for the last, in proportion to the standings (all level: 0). The leader's factor is the largest,
 * so the leader is never less likely to win the heat than before it began, and a wider lead (others
 * relatively further back) only lowers the others' factors. Progress counts in tenths, so that a
 * price holds between moves of the standings.
 */
export function heatTilt(heat: HeatInPlay | undefined): Map<string, number> {
  const tilt = new Map<string, number>();
  if (!heat || heat.standings.length < 2) return tilt;
  const progress = Math.floor(Math.min(1, Math.max(0, heat.progress)) * 10) / 10;
  const values = heat.standings.map((s) => s.standing);
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  for (const { athleteId, standing } of heat.standings) {
    const d = top > bottom ? (2 * (standing - bottom)) / (top - bottom) - 1 : 0;
    tilt.set(athleteId, Math.exp(FORM * progress * d));
  }
  return tilt;
}

/**
 * The places of athletes knocked out: those out in the same round share the places below everyone
 * who went further (`rounds` lists who went out in each round, first round first; `fieldSize` is
 * the number of athletes who started).
 */
export function knockedOutPlaces(rounds: ReadonlyArray<readonly string[]>, fieldSize: number): Map<string, PlaceRange> {
  const places = new Map<string, PlaceRange>();
  let to = fieldSize;
  for (const out of rounds) {
    if (out.length === 0) continue;
    const range = { from: to - out.length + 1, to };
    for (const id of out) places.set(id, range);
    to -= out.length;
  }
  return places;
}

/** Formats whose heat scores rank low to high: strokes, times, elapsed times. */
const LOW_SCORES_LEAD = new Set<string>(['stroke-play', 'timed-race', 'drag-pairing']);

/** A heat entry as the standings read it: a running position, or a score so far. */
export interface HeatEntryState {
  athleteId: string;
  position?: number | null;
  heatScore?: number | null;
}

/**
 * The standings of the heat in play, higher ahead: by position, else by score so far. Where the best
 * score wins, an athlete yet to score stands at nothing (the leader on 7.11 points is ahead of one
 * unscored); where the lowest time or score wins, one without a score is left out (nothing to compare).
 */
export function heatStandings(
  resultsFormat: string,
  athleteIds: readonly string[],
  entries: readonly HeatEntryState[],
): Array<{ athleteId: string; standing: number }> {
  const placed = entries.filter((e) => typeof e.position === 'number' && e.position > 0);
  if (placed.length > 1) return placed.map((e) => ({ athleteId: e.athleteId, standing: -(e.position as number) }));
  const scored = entries.filter((e) => typeof e.heatScore === 'number');
  if (LOW_SCORES_LEAD.has(resultsFormat))
    return scored.map((e) => ({ athleteId: e.athleteId, standing: -(e.heatScore as number) }));
  const score = new Map(scored.map((e) => [e.athleteId, e.heatScore as number]));
  return athleteIds.map((athleteId) => ({ athleteId, standing: score.get(athleteId) ?? 0 }));
}
