import { parseArgs } from 'node:util';

export interface BenchArgs {
  /** Measured seconds per target. */
  duration: number;
  /** Warm-up seconds per target, not measured. */
  warmup: number;
  connections: number;
  /** Scenario names to run; every scenario when empty. */
  routes: string[];
  /** Heats of 20 riders with 5 laps each fed to the ingest measurement; 0 skips it. */
  ingestHeats: number;
  /** Warm same game parlay requests per leg count (after 20 unmeasured); 0 skips the parlay measurement. */
  parlayRequests: number;
  /** Odds changes per leg count, each followed by one timed parlay request; 0 skips that part. */
  parlayChanges: number;
  /** Leg counts of the parlays measured, 2 to 6. */
  parlayLegs: number[];
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '10' },
      routes: { type: 'string', default: '' },
      'ingest-heats': { type: 'string', default: '5000' },
      'parlay-requests': { type: 'string', default: '200' },
      'parlay-changes': { type: 'string', default: '10' },
      'parlay-legs': { type: 'string', default: '2,3,4,5,6' },
    },
  });
  return {
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, true),
    connections: positive('connections', values.connections),
    routes: values.routes.split(',').map((r) => r.trim()).filter(Boolean),
    ingestHeats: positive('ingest-heats', values['ingest-heats'], true),
    parlayRequests: positive('parlay-requests', values['parlay-requests'], true),
    parlayChanges: positive('parlay-changes', values['parlay-changes'], true),
    parlayLegs: legCounts(values['parlay-legs']),
  };
}

function positive(name: string, raw: string, zeroOk = false): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1)) throw new Error(`--${name} must be a whole number${zeroOk ? '' : ' above 0'}, got "${raw}"`);
  return value;
}

function legCounts(raw: string): number[] {
  const counts = raw.split(',').map((c) => c.trim()).filter(Boolean).map(Number);
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 2 || n > 6)) throw new Error(`--parlay-legs must list leg counts from 2 to 6 (e.g. 2,4,6), got "${raw}"`);
  return [...new Set(counts)].sort((a, b) => a - b);
}
