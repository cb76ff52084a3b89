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
    },
  });
  return {
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, true),
    connections: positive('connections', values.connections),
    routes: values.routes.split(',').map((r) => r.trim()).filter(Boolean),
    ingestHeats: positive('ingest-heats', values['ingest-heats'], true),
  };
}

function positive(name: string, raw: string, zeroOk = false): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1)) throw new Error(`--${name} must be a whole number${zeroOk ? '' : ' above 0'}, got "${raw}"`);
  return value;
}
