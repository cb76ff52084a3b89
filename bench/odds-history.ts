import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { FeedDocument } from '../src/ingest/feed-schema.ts';
import { ingestFeed } from '../src/ingest/ingest-feed.ts';
import { getOddsHistory } from '../src/read/odds-history.ts';
import { migrateToLatest, openStore, type Store } from '../src/store/database.ts';
import { ms, summarize } from './stats.ts';
import { BENCH_T, supercrossEvents } from './supercross-events.ts';

/**
 * `npm run bench:odds-history` (not a test): the price history's read and write costs, on
 * SQLite (a temporary directory) and on PostgreSQL (a throwaway schema, when DATABASE_URL or
 * TEST_DATABASE_URL names a server: run it under scripts/with-postgres.ts, as the npm script does).
 * - Fills the store with `--changes` recorded price changes (1,000,000 by default) spread evenly over
 *   `--outcomes` outcomes (10,000: 100 LIVE Supercross events of one 100-outcome winner market), bulk
 *   inserted with one INSERT ... SELECT, then times `--reads` reads of one outcome's history (the read
 *   model GET /events/{eventId}/odds-history runs, outcomeId given), random outcomes, after a warm-up:
 *   target p99 under 20 ms.
 * - Price-tick ingest: `--ticks` batches, each moving every price of one event's market (100 odds),
 *   through ingestFeed, alternately with the history recorded and without (ingestFeed's
 *   `oddsHistory: false`, today's path): odds per second of each; target: with at least half of without.
 * Usage: npm run bench:odds-history -- [--changes 1000000] [--outcomes 10000] [--reads 500] [--ticks 100]
 */

const { values } = parseArgs({
  options: {
    changes: { type: 'string', default: '1000000' },
    outcomes: { type: 'string', default: '10000' },
    reads: { type: 'string', default: '500' },
    ticks: { type: 'string', default: '100' },
  },
});
const PER_EVENT = 100;
const outcomes = Math.max(PER_EVENT, Math.round(Number(values.outcomes) / PER_EVENT) * PER_EVENT);
const changes = Math.max(outcomes, Number(values.changes));
const reads = Number(values.reads);
const ticks = Number(values.ticks);
const events = outcomes / PER_EVENT;
const WARM_UP = 20;
const T = BENCH_T;

const uuid = (e: number) => `5b5b5b5b-0000-4000-8000-${String(e).padStart(12, '0')}`;
const oddId = (e: number, i: number) => `o-${e}-${i}`;

/** `events` LIVE Supercross events, each with one eventWinner market of PER_EVENT priced riders. */
function setupFeed(): FeedDocument {
  return {
    updatedAt: T,
    ...supercrossEvents(events, PER_EVENT, 'LIVE', uuid),
    markets: Array.from({ length: events }, (_, e) => ({ id: `m-${e}`, eventId: uuid(e), oddType: 'eventWinner' })),
    odds: Array.from({ length: outcomes }, (_, n) => {
      const e = Math.floor(n / PER_EVENT);
      const i = n % PER_EVENT;
      return { id: oddId(e, i), marketId: `m-${e}`, athleteId: `rider-${i}`, odds: 2 + i };
    }),
  };
}

/**
 * Replaces the history the setup recorded with `changes` rows, `changes / outcomes` per outcome a
 * minute apart (in 2025, before every tick), written round by round as a feed would interleave them.
 */
async function fillHistory(store: Store): Promise<void> {
  const perOutcome = Math.ceil(changes / outcomes);
  await sql`delete from odds_history`.execute(store.db);
  const at =
    store.dialect === 'postgres'
      ? sql`to_char(timestamp '2025-01-01' + g.n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || g.n || ' minutes')`;
  const series =
    store.dialect === 'postgres'
      ? sql`generate_series(1, ${perOutcome}) as g(n)`
      : sql`(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${perOutcome}) select n from s) as g`;
  await sql`
    insert into odds_history (odd_id, decimal_odds, status, status_reason, changed_at, is_first)
    select o.id, 1.5 + (g.n % 50) / 10.0, case when g.n % 20 = 0 then 'SUSPENDED' else 'OPEN' end, null, ${at},
           case when g.n = 1 then 1 else 0 end
    from ${series} cross join odds o
    order by g.n, o.id`.execute(store.db);
  if (store.dialect === 'postgres') await sql`analyze odds_history`.execute(store.db);
  else await sql`analyze`.execute(store.db);
}

async function count(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('oddsHistory')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Milliseconds per read of one random outcome's history, after a warm-up. */
async function timeReads(store: Store): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < WARM_UP + reads; r++) {
    const e = Math.floor(Math.random() * events);
    const i = Math.floor(Math.random() * PER_EVENT);
    const started = process.hrtime.bigint();
    const [history] = (await getOddsHistory(store, `spr:${uuid(e)}`, { outcomeId: oddId(e, i) }, null)).items;
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (!history || history.changes.length === 0) throw new Error(`bench: no history for ${oddId(e, i)}`);
    if (r >= WARM_UP) samples.push(elapsed);
  }
  return samples;
}

/** Odds per second through ingestFeed, ticks alternating with and without the history. */
async function timeTicks(store: Store): Promise<{ with: number; without: number }> {
  const seconds = { with: 0, without: 0 };
  let odds = { with: 0, without: 0 };
  for (let t = 0; t < ticks; t++) {
    const e = t % events;
    const updatedAt = new Date(Date.parse('2026-06-01T00:00:00.000Z') + t * 1000).toISOString();
    const feed: FeedDocument = {
      odds: Array.from({ length: PER_EVENT }, (_, i) => ({
        id: oddId(e, i),
        marketId: `m-${e}`,
        athleteId: `rider-${i}`,
        odds: 2 + i + ((t + 1) % 7) / 10 + 0.05,
        updatedAt,
      })),
    };
    const recorded = t % 2 === 0;
    const started = process.hrtime.bigint();
    await ingestFeed(store, feed, { oddsHistory: recorded });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    const side = recorded ? 'with' : 'without';
    seconds[side] += elapsed;
    odds = { ...odds, [side]: odds[side] + PER_EVENT };
  }
  return { with: odds.with / seconds.with, without: odds.without / seconds.without };
}

async function benchStore(name: string, store: Store): Promise<void> {
  let started = Date.now();
  await ingestFeed(store, setupFeed());
  await fillHistory(store);
  const held = await count(store);
  console.log(
    `${name}: ${held.toLocaleString('en')} recorded changes, filled in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  started = Date.now();
  const read = summarize(await timeReads(store));
  console.log(
    `${name}: one outcome's history (${Math.ceil(changes / outcomes)} changes): p50 ${ms(read.p50)} ms, p95 ${ms(read.p95)} ms, p99 ${ms(read.p99)} ms, max ${ms(read.max)} ms over ${read.samples} reads (target p99 < 20 ms)`,
  );
  const rate = await timeTicks(store);
  console.log(
    `${name}: price ticks of ${PER_EVENT} odds: ${rate.with.toFixed(0)} odds/s with the history, ${rate.without.toFixed(0)} without (${((rate.with / rate.without) * 100).toFixed(0)}%; target at least 50%)`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'altsports-bench-history-'));
try {
  console.log(
    `odds history bench: ${changes.toLocaleString('en')} changes over ${outcomes.toLocaleString('en')} outcomes, ${reads} reads, ${ticks} ticks`,
  );
  const sqlite = openStore({ dataDir });
  try {
    await migrateToLatest(sqlite);
    await benchStore('sqlite', sqlite);
  } finally {
    await sqlite.close();
  }
  const postgresUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const postgres = openStore({ databaseUrl: postgresUrl, pgSchema: schema });
    try {
      await migrateToLatest(postgres, schema);
      await benchStore('postgres', postgres);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(postgres.db);
      await postgres.close();
    }
  } else console.log('postgres: skipped (no DATABASE_URL or TEST_DATABASE_URL)');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
