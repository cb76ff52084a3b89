import { parseArgs } from 'node:util';
import { type LoadGenerator, wrkInstalled } from './load.ts';

/** The parts of `npm run bench`, in the order they run. */
export const PARTS = ['routes', 'parlay', 'json-server', 'stream', 'large', 'ingest'] as const;
export type Part = (typeof PARTS)[number];
/** Every part but `large`, which seeds a 100,000-event store first (minutes): it runs with --large-events or --only large. */
const DEFAULT_PARTS: Part[] = ['routes', 'parlay', 'json-server', 'stream', 'ingest'];
const DEFAULT_LARGE_EVENTS = 100_000;

export interface BenchArgs {
  /** The parts to run. */
  parts: Set<Part>;
  /** Measured seconds per target. */
  duration: number;
  /** Warm-up seconds per target, not measured. */
  warmup: number;
  connections: number;
  /** Scenario names to run; every scenario when empty. */
  routes: string[];
  /** Alternated rounds of altsports and raw runs per route. */
  rounds: number;
  /**
   * Servers of altsports and of the Fastify app in the routes part, each measured in every round:
   * servers of one build settle up to 5% apart, and one of each would measure which settled where.
   */
  instances: number;
  /**
   * What loads the routes part: autocannon, or wrk (Debian's `wrk`), which spends a few µs per answer
   * where autocannon spends about as much as the server, so that req/s shows the server's cost.
   */
  loadGenerator: LoadGenerator;
  /** Heats of 20 riders with 5 laps each fed to the ingest measurement; 0 skips it. */
  ingestHeats: number;
  /** Warm same game parlay requests per leg count (after 20 unmeasured); 0 skips the parlay measurement. */
  parlayRequests: number;
  /** Odds changes per leg count, each followed by one timed parlay; 0 skips that part. */
  parlayChanges: number;
  /** Leg counts of the parlays measured, 2 to 6. */
  parlayLegs: number[];
  /** Stream clients per node, measured feed batches, and batches per second. */
  streamClients: number;
  streamBatches: number;
  streamRate: number;
  /** Events of the large dataset (`large` part). */
  largeEvents: number;
  /** Keep the large store here and reuse it on the next run (it takes minutes to load); a temporary one when unset. */
  largeStore: string | undefined;
  /** Distinct documents per route asked for once each (the uncached path), on both datasets. */
  uncachedDocuments: number;
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', default: '' },
      duration: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '10' },
      routes: { type: 'string', default: '' },
      rounds: { type: 'string', default: '1' },
      instances: { type: 'string', default: '2' },
      'load-generator': { type: 'string', default: 'autocannon' },
      'ingest-heats': { type: 'string', default: '5000' },
      'parlay-requests': { type: 'string', default: '200' },
      'parlay-changes': { type: 'string', default: '10' },
      'parlay-legs': { type: 'string', default: '2,3,4,5,6' },
      'stream-clients': { type: 'string', default: '10' },
      'stream-batches': { type: 'string', default: '200' },
      'stream-rate': { type: 'string', default: '20' },
      'large-events': { type: 'string', default: '0' },
      'large-store': { type: 'string' },
      'uncached-documents': { type: 'string', default: '40' },
    },
  });
  const only = values.only
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length) throw new Error(`--only: unknown part(s) ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
  const largeEvents = positive('large-events', values['large-events'], true);
  const parts = new Set<Part>(
    only.length ? (only as Part[]) : [...DEFAULT_PARTS, ...(largeEvents > 0 ? (['large'] as const) : [])],
  );
  const ingestHeats = positive('ingest-heats', values['ingest-heats'], true);
  const parlayRequests = positive('parlay-requests', values['parlay-requests'], true);
  // The older switches still skip their part.
  if (ingestHeats === 0) parts.delete('ingest');
  if (parlayRequests === 0) parts.delete('parlay');
  return {
    parts,
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, true),
    connections: positive('connections', values.connections),
    routes: values.routes
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
    rounds: positive('rounds', values.rounds),
    instances: positive('instances', values.instances),
    loadGenerator: loadGenerator(values['load-generator']),
    ingestHeats,
    parlayRequests,
    parlayChanges: positive('parlay-changes', values['parlay-changes'], true),
    parlayLegs: legCounts(values['parlay-legs']),
    streamClients: positive('stream-clients', values['stream-clients']),
    streamBatches: positive('stream-batches', values['stream-batches']),
    streamRate: positive('stream-rate', values['stream-rate']),
    largeEvents: largeEvents || DEFAULT_LARGE_EVENTS,
    largeStore: values['large-store'],
    uncachedDocuments: positive('uncached-documents', values['uncached-documents']),
  };
}

function loadGenerator(raw: string): LoadGenerator {
  if (raw !== 'autocannon' && raw !== 'wrk')
    throw new Error(`--load-generator must be autocannon or wrk, got "${raw}"`);
  if (raw === 'wrk' && !wrkInstalled())
    throw new Error('--load-generator wrk: wrk is not installed (apt-get install wrk)');
  return raw;
}

function positive(name: string, raw: string, zeroOk = false): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1))
    throw new Error(`--${name} must be a whole number${zeroOk ? '' : ' above 0'}, got "${raw}"`);
  return value;
}

function legCounts(raw: string): number[] {
  const counts = raw
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .map(Number);
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 2 || n > 6))
    throw new Error(`--parlay-legs must list leg counts from 2 to 6 (e.g. 2,4,6), got "${raw}"`);
  return [...new Set(counts)].sort((a, b) => a - b);
}
