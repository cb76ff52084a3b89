import type { Random } from '../../domain/random.ts';
import type { FeedHeatEntry, ResultEvent, ResultHeat } from '../results.ts';
import { byOrder, type Entrant, type EventBuild, FINAL, LIVE, NONE, stageOf } from './event-build.ts';
import { snake } from './heats.ts';
import { gauss, indices, round1, round3 } from './numbers.ts';

/**
 * Racing: lap-by-lap (supercross, motocross, hlrs sprint cars) and position races (f1,
 * motoamerica, usac, worldoutlaws).
 */

type Role = 'qualifying' | 'heat' | 'lcq' | 'main';

interface RaceSpec {
  laps: number;
  /** A typical lap, seconds. */
  base: number;
  /** Timed sessions rank by the best lap; races by who crosses the line first. */
  timed: boolean;
  dnf: number;
}

type Racer = (b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec) => Entrant[];

/**
 * A race with per-lap records: each entrant's pace comes from strength, every lap adds noise and the odd
 * mistake, and lap 1 adds a start that shuffles the order; positions at the end of each lap come from
 * the cumulative times, so entrants pass each other. DNF entrants stop early, a rare DNS never starts.
 * A live race publishes the laps run so far, everyone on about the same lap.
 */
function lapRace(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  const entries = b.enter(heat, entrants);
  const stage = stageOf(heat);
  if (stage === NONE) return quickRace(b.rng, entrants, spec);
  const run = runLaps(b.rng, entrants, spec);
  const { n, dns, best, penalty } = run;
  // Final order: finishers by time (with penalties), then DNFs by laps run, DNS last; timed: best lap.
  const order = indices(n).sort((x, y) => {
    const dx = dns[x] ?? 0;
    const dy = dns[y] ?? 0;
    if (dx !== dy) return dx - dy;
    if (spec.timed) return (best[x] ?? 0) - (best[y] ?? 0) || x - y;
    return (
      run.lapsOf(y) - run.lapsOf(x) ||
      run.cumAt(x, run.lapsOf(x)) + (penalty[x] ?? 0) - run.cumAt(y, run.lapsOf(y)) - (penalty[y] ?? 0) ||
      x - y
    );
  });
  order.forEach((i, k) => {
    (entrants[i] as Entrant).mark = spec.timed ? (best[i] ?? 0) : k;
  });
  const shown = stage === FINAL ? spec.laps : Math.min(spec.laps - 1, Math.floor(heat.progress * spec.laps));
  const { position, soFar } = lapPositions(run, shown, spec.timed);
  let running = order;
  if (stage === LIVE) {
    const upTo = (i: number) => Math.min(run.lapsOf(i), shown);
    running = indices(n).sort((x, y) => {
      const dx = dns[x] ?? 0;
      const dy = dns[y] ?? 0;
      if (dx !== dy) return dx - dy;
      if (spec.timed) return (soFar[x] ?? 0) - (soFar[y] ?? 0) || x - y;
      return upTo(y) - upTo(x) || run.cumAt(x, upTo(x)) - run.cumAt(y, upTo(y)) || x - y;
    });
  }
  const view: LapView = { run, shown, final: stage === FINAL, position, soFar };
  running.forEach((i, k) => {
    publishLaps(b, entries[i] as FeedHeatEntry, i, k + 1, view, spec);
  });
  return order.map((i) => entrants[i] as Entrant);
}

/** Every entrant's laps as run: lap times and their running totals, laps done, best lap, time penalty. */
interface LapRun {
  n: number;
  lapCount: number;
  times: Float64Array;
  cum: Float64Array;
  done: Int32Array;
  dns: Uint8Array;
  best: Float64Array;
  penalty: Float64Array;
  lapsOf: (i: number) => number;
  /** Time after `laps` laps. */
  cumAt: (i: number, laps: number) => number;
}

/** Draws the race lap by lap for each entrant in turn (lap times are `times[i * laps + lap]`). */
function runLaps(rng: Random, entrants: readonly Entrant[], spec: RaceSpec): LapRun {
  const n = entrants.length;
  const L = spec.laps;
  const times = new Float64Array(n * L);
  const cum = new Float64Array(n * L);
  const done = new Int32Array(n);
  const dns = new Uint8Array(n);
  const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const penalty = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.chance(0.012)) {
      dns[i] = 1;
      continue;
    }
    const pace = spec.base * (1 - 0.012 * (entrants[i] as Entrant).athlete.strength + 0.004 * gauss(rng));
    const laps = rng.chance(spec.dnf) ? rng.int(0, L - 1) : L;
    done[i] = laps;
    let total = 0;
    for (let l = 0; l < laps; l++) {
      let t = pace + spec.base * 0.008 * gauss(rng);
      // Lap 1 is an out lap in a timed session and a standing start in a race.
      if (l === 0) t += spec.base * (spec.timed ? 0.06 : rng.float(0.05, 0.15));
      if (rng.chance(0.03)) t += spec.base * rng.float(0.04, 0.2);
      t = round3(t);
      times[i * L + l] = t;
      total += t;
      cum[i * L + l] = total;
      if (t < (best[i] ?? 0)) best[i] = t;
    }
    if (!spec.timed && laps === L && rng.chance(0.025)) penalty[i] = rng.chance(0.8) ? 5 : 10;
  }
  const lapsOf = (i: number) => done[i] ?? 0;
  const cumAt = (i: number, laps: number) => (laps > 0 ? (cum[i * L + laps - 1] ?? 0) : 0);
  return { n, lapCount: L, times, cum, done, dns, best, penalty, lapsOf, cumAt };
}

/**
 * Positions at the end of each of the first `shown` laps, among the entrants who completed it, and
 * each entrant's best lap among them.
 */
function lapPositions(run: LapRun, shown: number, timed: boolean): { position: Int32Array; soFar: Float64Array } {
  const { n, lapCount: L, times, cum } = run;
  const position = new Int32Array(n * L);
  const soFar = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const onLap: number[] = [];
  for (let l = 0; l < shown; l++) {
    onLap.length = 0;
    for (let i = 0; i < n; i++) {
      if (run.lapsOf(i) <= l) continue;
      onLap.push(i);
      const t = times[i * L + l] ?? 0;
      if (t < (soFar[i] ?? 0)) soFar[i] = t;
    }
    if (timed) onLap.sort((x, y) => (soFar[x] ?? 0) - (soFar[y] ?? 0) || x - y);
    else onLap.sort((x, y) => (cum[x * L + l] ?? 0) - (cum[y * L + l] ?? 0) || x - y);
    for (let k = 0; k < onLap.length; k++) position[(onLap[k] ?? 0) * L + l] = k + 1;
  }
  return { position, soFar };
}

/** The race as far as it is published: the first `shown` laps, with positions and best laps so far. */
interface LapView {
  run: LapRun;
  shown: number;
  final: boolean;
  position: Int32Array;
  soFar: Float64Array;
}

/** Entrant `i`'s heat entry at running position `place`, and its laps as far as they are shown. */
function publishLaps(
  b: EventBuild,
  entry: FeedHeatEntry,
  i: number,
  place: number,
  view: LapView,
  spec: RaceSpec,
): void {
  const { run, shown, final, position, soFar } = view;
  const L = spec.laps;
  const laps = Math.min(run.lapsOf(i), shown);
  if (shown > 0) entry.position = place;
  entry.lapStatus = run.dns[i] ? 'DNS' : run.lapsOf(i) < shown || (final && run.lapsOf(i) < L) ? 'DNF' : 'ACT';
  entry.totalLaps = L;
  // A race sends the time of the entrant's last lap; a timed session the best lap, its qualifying time.
  if (laps > 0) entry.lapTime = spec.timed ? (soFar[i] ?? 0) : (run.times[i * L + laps - 1] ?? 0);
  if (final && (run.penalty[i] ?? 0) > 0) entry.penaltyTime = run.penalty[i] ?? 0;
  for (let l = 0; l < laps; l++) {
    b.sink.laps.push({
      heatEntryId: entry.id,
      lapNo: l + 1,
      lapTime: run.times[i * L + l] ?? 0,
      position: position[i * L + l] ?? 0,
    });
  }
}

/**
 * An upcoming race is not published, but its outcome still decides who goes through: a rough order
 * from strength and luck, marked in lap seconds so that it ranks with timed sessions already run.
 */
function quickRace(rng: Random, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  for (const entrant of entrants)
    entrant.mark = spec.base * (1 - 0.012 * (entrant.athlete.strength + 0.8 * gauss(rng)));
  return [...entrants].sort((x, y) => x.mark - y.mark || x.order - y.order);
}

/**
 * A race published as positions only: the order comes from strength and luck, the best lap from pace.
 * A live race shows the running order and the best laps so far; a live timed session the drivers who
 * have set a time so far.
 */
function positionRace(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  const entries = b.enter(heat, entrants);
  const stage = stageOf(heat);
  if (stage === NONE) return quickRace(b.rng, entrants, spec);
  const rng = b.rng;
  const n = entrants.length;
  const L = spec.laps;
  const key = new Float64Array(n);
  const bestLap = new Float64Array(n);
  const done = new Int32Array(n);
  const dns = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const s = (entrants[i] as Entrant).athlete.strength;
    bestLap[i] = round3(spec.base * (spec.timed ? 1 : 1.025) * (1 - 0.007 * s + 0.003 * gauss(rng)));
    dns[i] = rng.chance(0.01) ? 1 : 0;
    done[i] = spec.timed || !rng.chance(spec.dnf) ? L : rng.int(0, L - 1);
    key[i] = spec.timed ? (bestLap[i] ?? 0) : -(s + 0.8 * gauss(rng));
  }
  const lapNow = stage === FINAL ? L : Math.floor(heat.progress * L);
  // Non-starters last, more laps first, then the key; a live race counts only the laps run so far,
  // so the retired drop behind everyone still running.
  const lapsNow = (i: number) => Math.min(done[i] ?? 0, lapNow);
  const compare = (laps: (i: number) => number) => (x: number, y: number) =>
    (dns[x] ?? 0) - (dns[y] ?? 0) || laps(y) - laps(x) || (key[x] ?? 0) - (key[y] ?? 0) || x - y;
  const order = indices(n).sort(compare((i) => done[i] ?? 0));
  order.forEach((i, k) => {
    (entrants[i] as Entrant).mark = spec.timed ? (dns[i] ? Number.POSITIVE_INFINITY : (bestLap[i] ?? 0)) : k;
  });
  const running = stage === FINAL ? order : indices(n).sort(compare(lapsNow));
  let place = 0;
  for (const i of running) {
    const entry = entries[i] as FeedHeatEntry;
    if (L > 0) entry.totalLaps = L;
    if (spec.timed && stage === LIVE && !dns[i] && !rng.chance(heat.progress)) continue;
    entry.lapStatus = dns[i] ? 'DNS' : (done[i] ?? 0) < lapNow ? 'DNF' : 'ACT';
    if (dns[i]) continue;
    entry.position = ++place;
    entry.lapTime = stage === FINAL ? (bestLap[i] ?? 0) : round3((bestLap[i] ?? 0) * 1.004);
  }
  return order.map((i) => entrants[i] as Entrant);
}

interface FieldRacingSpec {
  size: number;
  /** A withdrawal without an alternate to replace it may not shrink the field below this. */
  minSize: number;
  base: number;
  /** Laps by role; a number range is drawn per event. */
  laps: Readonly<Record<Role, readonly [number, number]>>;
  /** Straight into the main from a heat (with a heats round), or from qualifying (without one). */
  transfer: number;
  /** From the last chance qualifier into the main. */
  lastChance: number;
}

/** Qualifying, then (heat races,) a last chance qualifier, then the main event(s). */
function fieldRacing(b: EventBuild, event: ResultEvent, spec: FieldRacingSpec, race: Racer): void {
  const rng = b.rng;
  const laps = {} as Record<Role, number>;
  for (const role of ['qualifying', 'heat', 'lcq', 'main'] as const)
    laps[role] = rng.int(spec.laps[role][0], spec.laps[role][1]);
  const dnf: Record<Role, number> = { qualifying: 0.02, heat: 0.03, lcq: 0.04, main: 0.06 };
  const run = (role: Role, heat: ResultHeat, entrants: readonly Entrant[]) =>
    race(b, heat, entrants, { laps: laps[role], base: spec.base, timed: role === 'qualifying', dnf: dnf[role] });

  const field = b.field(spec.size, spec.minSize);
  let qualified: Entrant[] = field;
  let main: Entrant[] = [];
  let lcq: Entrant[] = [];
  for (const round of event.rounds) {
    const role = roleOf(round.name);
    if (role === 'qualifying') {
      const groups = snake(field, round.heats.length);
      const timed: Entrant[] = [];
      round.heats.forEach((heat, h) => {
        timed.push(...run(role, heat, groups[h] ?? []));
      });
      // Riders without a time rank last; the time is each entrant's mark (Infinity when none).
      qualified = timed.sort((x, y) => x.mark - y.mark || x.order - y.order);
      main = qualified.slice(0, spec.transfer);
      lcq = qualified.slice(spec.transfer);
    } else if (role === 'heat') {
      main = [];
      lcq = [];
      const count = round.heats.length;
      round.heats.forEach((heat, h) => {
        const ranked = run(
          role,
          heat,
          qualified.filter((_, k) => k % count === h),
        );
        main.push(...ranked.slice(0, spec.transfer));
        lcq.push(...ranked.slice(spec.transfer));
      });
    } else if (role === 'lcq') {
      const heat = round.heats[0];
      if (heat && lcq.length > 0) {
        const ranked = run(role, heat, lcq.sort(byQualifying(qualified)));
        main.push(...ranked.slice(0, spec.lastChance));
        for (const entrant of ranked.slice(spec.lastChance)) b.out(entrant, heat);
      }
    } else {
      const gate = [...main].sort(byQualifying(qualified));
      for (const heat of round.heats) run(role, heat, gate);
    }
  }
}

function roleOf(roundName: string): Role {
  if (/last chance|consolation|semi|lcq/i.test(roundName)) return 'lcq';
  if (/qualif/i.test(roundName)) return 'qualifying';
  if (/heat/i.test(roundName)) return 'heat';
  return 'main';
}

/** Gate picks and grids go by qualifying result. */
function byQualifying(qualified: readonly Entrant[]) {
  const rank = new Map(qualified.map((entrant, i) => [entrant, i]));
  return (a: Entrant, b: Entrant) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
}

/**
 * Practice sessions, qualifying, then races with the whole field. Three qualifying sessions are a
 * knockout (Q1 and Q2 each drop five; the grid is Q3's order, then the others by their last session);
 * otherwise the grid goes by each entrant's best lap of any session.
 */
function roadRacing(b: EventBuild, event: ResultEvent, spec: FieldRacingSpec): void {
  const rng = b.rng;
  const raceLaps = rng.int(spec.laps.main[0], spec.laps.main[1]);
  const field = b.field(spec.size, spec.minSize);
  const session = (heat: ResultHeat, entrants: readonly Entrant[], base: number) =>
    positionRace(b, heat, entrants, { laps: 0, base, timed: true, dnf: 0 });
  let grid = field;
  for (const round of event.rounds) {
    if (/practice/i.test(round.name)) {
      for (const heat of round.heats) session(heat, field, spec.base * 1.012);
    } else if (/qualif/i.test(round.name) && round.heats.length === 3) {
      let starters = field;
      const dropped: Entrant[][] = [];
      round.heats.forEach((heat, q) => {
        const ranked = session(heat, starters, spec.base);
        if (q === round.heats.length - 1) {
          grid = [...ranked, ...dropped.flat()];
          return;
        }
        const keep = Math.max(1, ranked.length - 5);
        dropped.unshift(ranked.slice(keep));
        starters = ranked.slice(0, keep).sort(byOrder);
      });
    } else if (/qualif/i.test(round.name)) {
      for (const entrant of field) entrant.total = Number.POSITIVE_INFINITY;
      for (const heat of round.heats)
        for (const entrant of session(heat, field, spec.base)) entrant.total = Math.min(entrant.total, entrant.mark);
      grid = [...field].sort((x, y) => x.total - y.total || x.order - y.order);
    } else {
      for (const heat of round.heats)
        positionRace(b, heat, grid, { laps: raceLaps, base: spec.base, timed: false, dnf: 0.07 });
    }
  }
}

interface RacingProfile {
  /** Field racing: qualifying, heats, last chance, mains; road racing: sessions, then races. */
  kind: 'field' | 'road';
  size: number;
  minSize?: number;
  /** Range of a typical lap, seconds; each event (track) draws one. */
  base: readonly [number, number];
  laps: FieldRacingSpec['laps'];
  transfer: number;
  race: Racer;
}

function racing(b: EventBuild, event: ResultEvent, profile: RacingProfile): void {
  const spec: FieldRacingSpec = {
    size: profile.size,
    minSize: profile.minSize ?? 12,
    base: round1(b.rng.float(profile.base[0], profile.base[1])),
    laps: profile.laps,
    transfer: profile.transfer,
    lastChance: 4,
  };
  if (profile.kind === 'road') roadRacing(b, event, spec);
  else fieldRacing(b, event, spec, profile.race);
}

const NO_LAPS: readonly [number, number] = [0, 0];

const RACING: Readonly<Record<string, RacingProfile>> = {
  spr: {
    kind: 'field',
    size: 40,
    base: [46, 56],
    laps: { qualifying: [6, 8], heat: [6, 6], lcq: [4, 5], main: [19, 22] },
    transfer: 9,
    race: lapRace,
  },
  sprmtcrs: {
    kind: 'field',
    size: 40,
    base: [50, 60],
    laps: { qualifying: [6, 8], heat: [6, 6], lcq: [5, 6], main: [15, 18] },
    transfer: 18,
    race: lapRace,
  },
  motocrs: {
    kind: 'field',
    size: 40,
    base: [120, 140],
    laps: { qualifying: [5, 6], heat: [6, 6], lcq: [5, 6], main: [14, 17] },
    transfer: 22,
    race: lapRace,
  },
  hlrs: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 10], lcq: [12, 12], main: [25, 30] },
    transfer: 5,
    race: lapRace,
  },
  usac: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 8], lcq: [12, 12], main: [30, 30] },
    transfer: 4,
    race: positionRace,
  },
  worldoutlaws: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 8], lcq: [12, 12], main: [30, 40] },
    transfer: 5,
    race: positionRace,
  },
  // Formula 1 always starts twenty cars: a driver who cannot race is replaced by a reserve.
  f1: {
    kind: 'road',
    size: 20,
    minSize: 20,
    base: [72, 98],
    laps: { qualifying: NO_LAPS, heat: NO_LAPS, lcq: NO_LAPS, main: [50, 72] },
    transfer: 0,
    race: positionRace,
  },
  motoamerica: {
    kind: 'road',
    size: 28,
    base: [95, 125],
    laps: { qualifying: NO_LAPS, heat: NO_LAPS, lcq: NO_LAPS, main: [14, 21] },
    transfer: 0,
    race: positionRace,
  },
};

/** The competition's racing format, or null for a competition without a racing profile. */
export function racingFormat(key: string): ((b: EventBuild, event: ResultEvent) => void) | null {
  const profile = RACING[key];
  return profile ? (b, event) => racing(b, event, profile) : null;
}
