import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FeedDocument } from '../src/ingest/feed-schema.ts';
import { ingestFeed } from '../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore, type Store } from '../src/store/database.ts';
import { BENCH_T, supercrossEvents } from './supercross-events.ts';

/**
 * Feed ingestion rate: heat entries per second and laps per second through the whole ingest path
 * (schema validation, reference checks, one transaction), on a store that already holds the events.
 */

export interface IngestRate {
  collection: 'heatEntries' | 'laps';
  rows: number;
  seconds: number;
  perSecond: number;
}

const T = BENCH_T;

/** Events of supercross mains: `heats` heats of `riders` entries, each entry with `laps` laps. */
export function syntheticResults(heats: number, riders: number, laps: number) {
  const heatsPerEvent = 10;
  const events = Math.ceil(heats / heatsPerEvent);
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const setup: FeedDocument = {
    updatedAt: T,
    ...supercrossEvents(events, riders, 'COMPLETED', uuid),
    rounds: Array.from({ length: events }, (_, e) => ({
      id: `r${e}`,
      eventId: uuid(e),
      roundName: 'Main',
      roundNo: 1,
      roundStatus: 'COMPLETED',
    })),
    heats: Array.from({ length: heats }, (_, h) => ({
      id: `h${h}`,
      roundId: `r${Math.floor(h / heatsPerEvent)}`,
      heatName: `Heat ${h}`,
      heatNo: h,
      heatStatus: 'COMPLETED',
    })),
  };
  const entries: FeedDocument = { updatedAt: T, heatEntries: [] };
  const lapDoc: FeedDocument = { updatedAt: T, laps: [] };
  for (let h = 0; h < heats; h++) {
    for (let r = 0; r < riders; r++) {
      const id = `h${h}-e${r}`;
      entries.heatEntries?.push({
        id,
        heatId: `h${h}`,
        athleteId: `rider-${r}`,
        seed: r + 1,
        position: r + 1,
        lapTime: 47 + r / 10,
        totalLaps: laps,
        lapStatus: 'ACT',
      });
      for (let n = 1; n <= laps; n++)
        lapDoc.laps?.push({
          heatEntryId: id,
          lapNo: n,
          lapTime: 47 + ((r * 7 + n * 3) % 20) / 10,
          position: ((r + n) % riders) + 1,
        });
    }
  }
  return { setup, entries, laps: lapDoc };
}

export async function measureIngest(store: Store, heats: number, riders: number, laps: number): Promise<IngestRate[]> {
  const feed = syntheticResults(heats, riders, laps);
  await ingestFeed(store, feed.setup);
  const rates: IngestRate[] = [];
  for (const collection of ['heatEntries', 'laps'] as const) {
    const doc = collection === 'heatEntries' ? feed.entries : feed.laps;
    const rows = doc[collection]?.length ?? 0;
    const started = process.hrtime.bigint();
    await ingestFeed(store, doc);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rates.push({ collection, rows, seconds, perSecond: rows / seconds });
  }
  return rates;
}

export interface IngestReport {
  store: string;
  rates: IngestRate[];
}

/** Fresh SQLite store in `dataDir`, and a throwaway PostgreSQL schema when `postgresUrl` is given. */
export async function benchIngest(
  dataDir: string,
  postgresUrl: string | undefined,
  size: { heats: number; riders: number; laps: number },
): Promise<IngestReport[]> {
  const reports: IngestReport[] = [];
  const sqlite = openStore({ dataDir });
  try {
    await migrateToLatest(sqlite);
    reports.push({ store: 'sqlite', rates: await measureIngest(sqlite, size.heats, size.riders, size.laps) });
  } finally {
    await sqlite.close();
  }
  if (postgresUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const postgres = openStore({ databaseUrl: postgresUrl, pgSchema: schema });
    try {
      await migrateToLatest(postgres, schema);
      reports.push({ store: 'postgres', rates: await measureIngest(postgres, size.heats, size.riders, size.laps) });
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(postgres.db);
      await postgres.close();
    }
  }
  return reports;
}

export function formatIngest(reports: IngestReport[]): string {
  const lines = ['| store | collection | rows | seconds | rows/s |', '|---|---|---:|---:|---:|'];
  for (const { store, rates } of reports) {
    for (const r of rates)
      lines.push(`| ${store} | ${r.collection} | ${r.rows} | ${r.seconds.toFixed(2)} | ${Math.round(r.perSecond)} |`);
  }
  return lines.join('\n');
}
