import { getCompetition } from '../src/domain/competitions.ts';
import { formatPublicId } from '../src/domain/public-id.ts';
import type { Store } from '../src/store/database.ts';
import type { EventRow, OddRow } from '../src/store/schema.ts';

/**
 * What `npm run soak` reads and writes, chosen from the seeded store before the server starts (the
 * store has the raw ids the feed needs; the public routes do not all show them):
 * - the read paths by kind, each with its "hot" subset, the documents of the events the writer
 *   changes (reads of those miss the response cache after each write);
 * - the writer's targets: heat scores of live heats, round scores of live team matches, the odds of
 *   those live events' markets and the futures of their competitions. Other competitions are never
 *   written, as off-season competitions would not be: documents that depend on both kinds keep their
 *   cache keys under tags that never change;
 * - same game parlays of an upcoming supercross (or F1) event and of an upcoming team match, and the
 *   eventWinner outcome whose price the writer moves now and then (a new price redraws the parlay's
 *   simulated finishing orders).
 */

export const PUBLIC = '/api/v1/public';

export const READ_KINDS = ['lists', 'polls', 'events', 'heats', 'odds', 'sport', 'futures'] as const;
export type ReadKind = (typeof READ_KINDS)[number];

export interface ReadSet {
  kind: ReadKind;
  /** Share of the reads, relative to the other kinds. */
  weight: number;
  /** Paths under the public prefix; `polls` has none (each poll asks `updatedSince` its last poll). */
  paths: string[];
  /** The subset that depends on written data. */
  hot: string[];
}

export const READ_WEIGHTS: Record<ReadKind, number> = {
  lists: 15,
  polls: 5,
  events: 20,
  heats: 15,
  odds: 20,
  sport: 10,
  futures: 10,
};

export type WriteKind = 'heatScore' | 'roundScore' | 'odds' | 'futureOdds';

export interface WriteTarget {
  kind: WriteKind;
  competition: string;
  /** The n-th write to this target: a small feed document, stamped `updatedAt`, and the items it holds per collection. */
  batch(n: number, updatedAt: string): { feed: Record<string, unknown[]>; collection: string; items: number };
}

export interface ParlayBody {
  label: string;
  path: string;
  body: string;
}

export interface Fixtures {
  reads: ReadSet[];
  writes: Record<WriteKind, WriteTarget[]>;
  writtenCompetitions: string[];
  parlays: ParlayBody[];
  /** Moves the parlay event's longest eventWinner price; null when no parlay event was found. */
  winnerMove: ((n: number, updatedAt: string) => Record<string, unknown[]>) | null;
  parlayEventId: string | null;
}

/**
 * Price and score moves cycle, so that a long run revisits the same values rather than drifting; the
 * first is not 1, so that the first write to a target changes it too (an unchanged item writes nothing).
 */
const FACTORS = [1.04, 1.08, 1.04, 1];
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const price = (base: number, factor: number) => Math.min(100_000, Math.max(1.01, round(base * factor, 4)));

/** A stored row as a feed item: nulls left out (an omitted field is stored as null) and store-only columns dropped. */
function item(row: object, drop: string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([name, value]) => value !== null && !drop.includes(name)));
}

function oddItem(odd: OddRow, decimalOdds: number, updatedAt: string): Record<string, unknown> {
  const base = item(odd, ['eventId', 'decimalOdds', 'athleteIds', 'updatedAt']);
  return {
    ...base,
    ...(odd.athleteIds ? { athleteIds: JSON.parse(odd.athleteIds) as string[] } : {}),
    odds: decimalOdds,
    updatedAt,
  };
}

const encode = (segment: string) => segment.replace(/[^A-Za-z0-9._~:-]/g, encodeURIComponent);
const publicId = (event: Pick<EventRow, 'competition' | 'id'>) => formatPublicId(event.competition, event.id);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export async function loadFixtures(store: Store, options: { winnerPrices: number }): Promise<Fixtures> {
  const { db } = store;
  const events = await db
    .selectFrom('events')
    .select(['id', 'competition', 'eventStatus', 'cardId', 'tourYearId'])
    .execute();
  const eventById = new Map(events.map((e) => [e.id, e]));
  const live = events.filter((e) => e.eventStatus === 'LIVE');
  const liveIds = live.map((e) => e.id);
  if (liveIds.length === 0) throw new Error('the store has no live event to write to');

  // Writes: heat scores of live heats (scored entries only), round scores of live team matches.
  const writes: Record<WriteKind, WriteTarget[]> = { heatScore: [], roundScore: [], odds: [], futureOdds: [] };
  const liveHeats = await db
    .selectFrom('heats')
    .select(['id', 'eventId'])
    .where('heatStatus', '=', 'LIVE')
    .where('eventId', 'in', liveIds)
    .execute();
  for (const heat of liveHeats) {
    const entries = (
      await db
        .selectFrom('heatEntries')
        .selectAll()
        .where('heatId', '=', heat.id)
        .where('heatScore', 'is not', null)
        .orderBy('referenceId')
        .limit(3)
        .execute()
    ).map((e) => ({ ...e }));
    const competition = eventById.get(heat.eventId)?.competition;
    if (entries.length === 0 || !competition) continue;
    writes.heatScore.push({
      kind: 'heatScore',
      competition,
      batch: (n, updatedAt) => ({
        collection: 'heatEntries',
        items: entries.length,
        feed: {
          heatEntries: entries.map((e) => ({
            ...item(e, ['updatedAt']),
            heatScore: e.heatScore
              ? round((e.heatScore as number) * (FACTORS[n % FACTORS.length] as number), 2)
              : (n + 1) % 4,
            updatedAt,
          })),
        },
      }),
    });
  }
  const roundScores = await db
    .selectFrom('roundScores')
    .selectAll()
    .where('eventId', 'in', liveIds)
    .orderBy('referenceId')
    .execute();
  const scoresByEvent = new Map<string, typeof roundScores>();
  for (const score of roundScores)
    scoresByEvent.set(score.eventId, [...(scoresByEvent.get(score.eventId) ?? []), score]);
  for (const [eventId, scores] of scoresByEvent) {
    const competition = eventById.get(eventId)?.competition as string;
    for (const score of scores.slice(-2)) {
      writes.roundScore.push({
        kind: 'roundScore',
        competition,
        batch: (n, updatedAt) => ({
          collection: 'roundScores',
          items: 1,
          feed: {
            roundScores: [{ ...item(score, ['eventId', 'updatedAt']), goals: score.goals + ((n + 1) % 3), updatedAt }],
          },
        }),
      });
    }
  }
  const written = new Set([...writes.heatScore, ...writes.roundScore].map((t) => t.competition));
  const writtenLive = live.filter((e) => written.has(e.competition));
  const writtenLiveIds = new Set(writtenLive.map((e) => e.id));
  if (writtenLiveIds.size === 0)
    throw new Error('no live heat with scores and no live team match: nothing for the writer to change');

  // Odds of those live events: every outcome of one open market per batch.
  const liveMarkets = await db
    .selectFrom('markets')
    .select(['id', 'eventId'])
    .where('status', '=', 'OPEN')
    .where('eventId', 'in', [...writtenLiveIds])
    .orderBy('referenceId')
    .execute();
  const liveOdds = await db
    .selectFrom('odds')
    .selectAll()
    .where('eventId', 'in', [...writtenLiveIds])
    .orderBy('referenceId')
    .execute();
  const oddsByMarket = new Map<string, OddRow[]>();
  for (const odd of liveOdds) oddsByMarket.set(odd.marketId, [...(oddsByMarket.get(odd.marketId) ?? []), odd]);
  for (const market of liveMarkets) {
    const outcomes = oddsByMarket.get(market.id) ?? [];
    if (outcomes.length === 0 || outcomes.length > 40 || outcomes.some((o) => o.status !== 'OPEN')) continue;
    writes.odds.push({
      kind: 'odds',
      competition: eventById.get(market.eventId)?.competition as string,
      batch: (n, updatedAt) => ({
        collection: 'odds',
        items: outcomes.length,
        feed: {
          odds: outcomes.map((o) => oddItem(o, price(o.decimalOdds, FACTORS[n % FACTORS.length] as number), updatedAt)),
        },
      }),
    });
  }
  // Futures of the written competitions: one outcome of each competition's first future.
  const futures = await db.selectFrom('futures').selectAll().execute();
  for (const competition of written) {
    const future = futures
      .filter((f) => f.competition === competition)
      .sort((a, b) => a.referenceId - b.referenceId)[0];
    if (!future) continue;
    const odd = await db
      .selectFrom('futureOdds')
      .selectAll()
      .where('futureId', '=', future.id)
      .orderBy('referenceId')
      .limit(1)
      .executeTakeFirst();
    if (!odd) continue;
    const prices = JSON.parse(odd.prices) as Array<{ outcomeName: string; decimalOdds: number }>;
    writes.futureOdds.push({
      kind: 'futureOdds',
      competition,
      batch: (n, updatedAt) => ({
        collection: 'futureOdds',
        items: 1,
        feed: {
          futureOdds: [
            {
              ...item(odd, ['prices', 'updatedAt']),
              odds: prices.map((p) => ({
                outcomeName: p.outcomeName,
                decimalOdds: price(p.decimalOdds, FACTORS[n % FACTORS.length] as number),
              })),
              updatedAt,
            },
          ],
        },
      }),
    });
  }

  // Reads.
  const hotEvent = (eventId: string) => writtenLiveIds.has(eventId);
  const reads = new Map<ReadKind, ReadSet>(
    READ_KINDS.map((kind) => [kind, { kind, weight: READ_WEIGHTS[kind], paths: [], hot: [] }]),
  );
  const add = (kind: ReadKind, path: string, hot: boolean) => {
    const set = reads.get(kind) as ReadSet;
    set.paths.push(PUBLIC + path);
    if (hot) set.hot.push(PUBLIC + path);
  };
  add('lists', '/sports', false);
  add('lists', '/events', true);
  add('lists', '/events?eventStatus=LIVE,NEXT', true);
  add('lists', '/events?limit=20', true);
  add('lists', `/events?startDate=${day(-7)}&endDate=${day(7)}&sortOrder=DESC`, true);
  for (const competition of new Set(events.map((e) => e.competition))) {
    add('lists', `/events?competition=${competition}`, written.has(competition));
    add('lists', `/events?competition=${competition}&eventStatus=LIVE,NEXT`, written.has(competition));
  }
  for (const event of events) {
    add('events', `/events/${publicId(event)}`, hotEvent(event.id));
    if (getCompetition(event.competition).participants === 'athletes')
      add('events', `/events/${publicId(event)}/participants`, hotEvent(event.id));
  }
  const heats = await db
    .selectFrom('heats')
    .select(['id', 'eventId', 'referenceId', 'heatStatus'])
    .orderBy('referenceId')
    .execute();
  const lastHeat = new Map<string, string>();
  for (const heat of heats) {
    const event = eventById.get(heat.eventId);
    if (!event) continue;
    if (event.eventStatus === 'LIVE')
      add('heats', `/events/${publicId(event)}/heats/${encode(heat.id)}`, hotEvent(event.id));
    else lastHeat.set(event.id, heat.id);
  }
  for (const [eventId, heatId] of lastHeat)
    add('heats', `/events/${publicId(eventById.get(eventId) as EventRow)}/heats/${encode(heatId)}`, false);
  const oddTypes = await db.selectFrom('markets').select(['eventId', 'oddType']).distinct().execute();
  for (const { eventId, oddType } of oddTypes) {
    const event = eventById.get(eventId);
    if (event && getCompetition(event.competition).participants === 'athletes')
      add('odds', `/events/${publicId(event)}/${oddType}`, hotEvent(eventId));
  }
  const cards = new Set<string>();
  const brackets = new Set<string>();
  for (const event of events) {
    const hot = hotEvent(event.id);
    if (['gsoc', 'mltt', 'nll', '3ice'].includes(event.competition))
      add('sport', `/events/${event.competition}/${publicId(event)}`, hot);
    if (['gsoc', 'mltt', 'nll'].includes(event.competition))
      add('sport', `/events/${event.competition}/${publicId(event)}/odds`, hot);
    if (event.competition === '3ice' && event.tourYearId && !brackets.has(event.tourYearId)) {
      brackets.add(event.tourYearId);
      add('sport', `/events/3ice/bracket/${encode(event.tourYearId)}`, written.has('3ice'));
    }
    if (event.competition === 'jaialai') {
      add('sport', `/events/jaialai/${publicId(event)}/odds`, hot);
      if (event.cardId && !cards.has(event.cardId)) {
        cards.add(event.cardId);
        add('sport', `/events/jaialai/${encode(event.cardId)}`, written.has('jaialai'));
      }
    }
  }
  add('futures', '/futures', true);
  for (const key of new Set(futures.map((f) => `${f.competition}/tour/${encode(f.tourId)}/odds/${f.type}`)))
    add('futures', `/futures/${key}`, written.has(key.split('/')[0] as string));

  const parlay = await parlayFixtures(store, events, options.winnerPrices);
  return {
    reads: [...reads.values()],
    writes,
    writtenCompetitions: [...written].sort(),
    parlays: parlay.bodies,
    winnerMove: parlay.winnerMove,
    parlayEventId: parlay.eventId,
  };
}

type ListedEvent = Pick<EventRow, 'id' | 'competition' | 'eventStatus'>;

/**
 * Parlays whose legs can all win together: on an upcoming supercross (or F1) event, favourites in
 * eventWinner, secondPlace, podium and top-5 markets, in a few combinations (their leg bitsets are
 * cached per selection, so a handful is what a steady client mix looks like); on an upcoming team
 * match, the home moneyline with the over.
 */
async function parlayFixtures(store: Store, events: ListedEvent[], winnerPrices: number) {
  const { db } = store;
  const bodies: ParlayBody[] = [];
  const openOdds = async (eventId: string) => {
    const markets = await db
      .selectFrom('markets')
      .selectAll()
      .where('eventId', '=', eventId)
      .where('status', '=', 'OPEN')
      .execute();
    const odds = await db
      .selectFrom('odds')
      .selectAll()
      .where('eventId', '=', eventId)
      .where('status', '=', 'OPEN')
      .execute();
    return { markets, odds };
  };
  let eventId: string | null = null;
  let winnerMove: Fixtures['winnerMove'] = null;
  const preferred = ['spr', 'f1'];
  const candidates = events
    .filter((e) => preferred.includes(e.competition) && ['UPCOMING', 'NEXT'].includes(e.eventStatus))
    .sort((a, b) => preferred.indexOf(a.competition) - preferred.indexOf(b.competition));
  for (const event of candidates) {
    const { markets, odds } = await openOdds(event.id);
    const byType = (...types: string[]) => {
      const market = types
        .map((t) => markets.find((m) => m.oddType === t && m.heatId === null))
        .find((m) => m !== undefined);
      return new Map(
        odds.filter((o) => o.marketId === market?.id && o.athleteId).map((o) => [o.athleteId as string, o]),
      );
    };
    const winners = byType('eventWinner');
    if (winners.size < 8) continue;
    const favourites = [...winners.values()]
      .sort((a, b) => a.decimalOdds - b.decimalOdds)
      .map((o) => o.athleteId as string);
    const [f1, f2, f3, f4] = favourites as [string, string, string, string];
    const second = byType('secondPlace');
    const podium = byType('podiums', 'raceTop3', 'shows');
    const top5 = byType('raceTop5', 'raceTop10');
    const combos: Array<[string, Array<OddRow | undefined>]> = [
      ['1 wins, 2 second', [winners.get(f1), second.get(f2)]],
      ['1 wins, 2 second, 3 podium', [winners.get(f1), second.get(f2), podium.get(f3)]],
      ['2 wins, 1 second', [winners.get(f2), second.get(f1)]],
      ['1 wins, 3 podium, 4 top 5', [winners.get(f1), podium.get(f3), top5.get(f4)]],
    ];
    const path = `${PUBLIC}/events/${publicId(event)}/sgp`;
    for (const [label, legs] of combos) {
      if (legs.every((leg) => leg !== undefined))
        bodies.push({
          label: `${event.competition} ${label}`,
          path,
          body: JSON.stringify({ oddIds: legs.map((leg) => (leg as OddRow).id) }),
        });
    }
    // The longest price outside every leg: moving it redraws the event's simulated orders, not the legs' own prices.
    const moved = [...winners.values()]
      .filter((o) => ![f1, f2, f3, f4].includes(o.athleteId as string))
      .sort((a, b) => b.decimalOdds - a.decimalOdds)[0];
    if (moved) {
      winnerMove = (n, updatedAt) => {
        // K price sets in turn (their simulations stay cached), or with K = 0 a new price every time.
        const factor = winnerPrices > 0 ? 1 + 0.25 * ((n + 1) % winnerPrices) : 1 + 0.001 * (n + 1);
        return { odds: [oddItem(moved, price(moved.decimalOdds, factor), updatedAt)] };
      };
    }
    eventId = publicId(event);
    break;
  }
  const teamCandidates = events.filter(
    (e) => ['nll', 'mltt', 'gsoc'].includes(e.competition) && ['UPCOMING', 'NEXT'].includes(e.eventStatus),
  );
  for (const event of teamCandidates) {
    const { markets, odds } = await openOdds(event.id);
    const side = (type: string, wanted: string) => {
      const market = markets.find(
        (m) => m.oddType === 'teamMarkets' && m.teamMarketType === type && m.roundId === null,
      );
      return odds.find((o) => o.marketId === market?.id && o.side === wanted);
    };
    const home = side('moneyline', 'HOME');
    const over = side('total', 'OVER');
    if (!home || !over) continue;
    bodies.push({
      label: `${event.competition} home moneyline and over`,
      path: `${PUBLIC}/events/${publicId(event)}/sgp`,
      body: JSON.stringify({ oddIds: [home.id, over.id] }),
    });
    break;
  }
  return { bodies, winnerMove, eventId };
}
