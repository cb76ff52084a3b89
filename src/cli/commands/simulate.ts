import type { ParseArgsConfig } from 'node:util';
import { loadConfig } from '../../config.ts';
import type { Prepared, TickSummary } from '../../demo/simulate.ts';
import { MAX_SPEED } from '../../demo/speed.ts';
import { COMPETITION_KEYS } from '../../domain/competitions.ts';
import type { Command } from '../main.ts';
import { openMigratedStore } from './open-store.ts';

/** The simulator's settings, shared by `simulate` and `serve --simulate`. */
export interface SimulateSettings {
  intervalMs: number;
  speed: number;
  competitions: string[] | undefined;
  /** Deliberate feed silences (DEMO_SILENCES) unless --steady. */
  silences: boolean;
}

export const SIMULATE_OPTIONS = {
  interval: { type: 'string' },
  speed: { type: 'string' },
  competitions: { type: 'string' },
  steady: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

export const SIMULATE_OPTIONS_HELP = [
  `  --interval S          seconds between ticks (default 1)`,
  `  --speed X             simulated seconds per real second, up to ${MAX_SPEED} (default 1: real time)`,
  '  --competitions L      comma-separated competition keys, e.g. wsl,spr (default all)',
  '  --steady              no deliberate feed silences (by default one competition in turn goes',
  '                        silent for 45 s every 5 minutes, to show the bet stop on silence)',
];

/** The settings from the command line, or the message naming the bad one. */
export function simulateSettings(
  values: Record<string, string | boolean | undefined>,
): SimulateSettings | { error: string } {
  const interval = values.interval === undefined ? 1 : Number(values.interval);
  if (!(interval >= 0.01 && interval <= 3600))
    return { error: '--interval must be a number of seconds from 0.01 to 3600' };
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!(speed > 0 && speed <= MAX_SPEED)) return { error: `--speed must be a number above 0 and at most ${MAX_SPEED}` };
  const competitions =
    typeof values.competitions === 'string'
      ? values.competitions
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean)
      : undefined;
  const unknown = competitions?.filter((key) => !COMPETITION_KEYS.includes(key as never)) ?? [];
  if (unknown.length > 0)
    return {
      error: `--competitions: unknown competition ${unknown.join(', ')} (known: ${COMPETITION_KEYS.join(', ')})`,
    };
  if (competitions && competitions.length === 0) return { error: '--competitions needs at least one competition key' };
  return { intervalMs: interval * 1000, speed, competitions, silences: values.steady !== true };
}

export const simulateCommand: Command = {
  usage: [
    'Usage: altsports simulate [--interval S] [--speed X] [--competitions L] [--steady] [--ticks N] [--seed S] [--reset]',
    '',
    'Moves the demo data forward in time through the ingest path, as a live feed would: heats go live,',
    'scores and laps arrive, odds move, markets close and settle, the next events open. A clock runs',
    'from the present at --speed times real time; every --interval seconds the events in play are',
    'brought to it and what changed is ingested, stamped with the real time, so that clients polling',
    'the API (updatedSince) or reading the push stream see it arrive. `altsports serve --simulate`',
    'runs the same simulator inside the server.',
    '',
    'The demo the store holds (see `altsports config`) is carried on: its events stay where they were',
    'laid out, and a run with a higher --speed is carried on from where it got to. A competition the',
    'store does not hold is loaded first, laid out around the present. Only demo ids are written;',
    'other data is left alone. The demo has a few events to come per competition: once the clock is',
    'past them (Jai Alai first, within a simulated day) nothing moves, and --reset lays it out afresh.',
    '',
    'Options:',
    ...SIMULATE_OPTIONS_HELP,
    '  --ticks N             stop after N ticks (default: run until SIGINT or SIGTERM)',
    "  --seed S              the demo's seed, as it was loaded (default 1)",
    '  --reset               lay the demo out around the present even when the store holds it, as',
    '                        `altsports demo` does (laps and results already sent for heats that',
    '                        are to come again stay in the store)',
    '',
    'Each tick prints one JSON line: tick, at (real time), clock (simulated time), live (events live),',
    'written (rows written by collection), changedEvents, transitions (events whose status changed)',
    'and ms; on a terminal, a short line instead.',
  ].join('\n'),
  options: { ...SIMULATE_OPTIONS, ticks: { type: 'string' }, seed: { type: 'string' }, reset: { type: 'boolean' } },
  async run({ values }) {
    const fail = (message: string) => {
      console.error(`altsports simulate: ${message}`);
      return 2;
    };
    const settings = simulateSettings(values);
    if ('error' in settings) return fail(settings.error);
    const ticks = values.ticks === undefined ? undefined : Number(values.ticks);
    if (ticks !== undefined && !(Number.isInteger(ticks) && ticks >= 1))
      return fail('--ticks must be a whole number from 1');
    const seed = values.seed === undefined ? undefined : Number(values.seed);
    if (seed !== undefined && !Number.isInteger(seed)) return fail('--seed must be a whole number');
    const { createSimulator, DEMO_SILENCES, prepareSimulation } = await import('../../demo/simulate.ts');
    const store = await openMigratedStore(loadConfig());
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const prepared = await prepareSimulation(store, {
        seed,
        competitions: settings.competitions,
        reset: values.reset === true,
      });
      process.stderr.write(
        `altsports simulate: ${startLine(prepared, settings.speed)} (${store.dialect} ${store.location})\n`,
      );
      const simulator = createSimulator(store, {
        anchor: prepared.anchors,
        clock: prepared.clock,
        speed: settings.speed,
        competitions: settings.competitions,
        seed,
        ...(settings.silences ? { silences: DEMO_SILENCES } : {}),
      });
      const tty = Boolean(process.stdout.isTTY);
      await simulator.run({
        intervalMs: settings.intervalMs,
        ticks,
        signal: stop.signal,
        onTick: (summary) => console.log(tty ? tickLine(summary) : JSON.stringify(summary)),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await store.close();
    }
  },
};

/** What the simulator starts from: the demo loaded or carried on, laid out around when, and the clock. */
export function startLine(prepared: Prepared, speed: number): string {
  const keys = Object.keys(prepared.anchors);
  const carried = keys.filter((key) => !prepared.loaded.includes(key));
  const around = [...new Set(Object.values(prepared.anchors).map((a) => a.toISOString()))].sort().join(', ');
  const demo =
    carried.length === 0
      ? 'loaded the demo'
      : prepared.loaded.length === 0
        ? 'carrying on the demo'
        : `carrying on the demo, loaded ${prepared.loaded.join(', ')}`;
  return `${demo} of ${keys.length} competitions, laid out around ${around}; clock from ${prepared.clock.toISOString()} at ${speed}x`;
}

/** A tick for a person: the times, the events live, the rows written, and the events that moved on. */
export function tickLine(summary: TickSummary): string {
  const written = Object.entries(summary.written).map(([collection, n]) => `${collection} ${n}`);
  const lines = [
    `${summary.at.slice(11, 19)}  clock ${summary.clock.slice(0, 16).replace('T', ' ')}  live ${summary.live}  ${written.length > 0 ? written.join('  ') : 'no change'}  (${summary.ms} ms)`,
    ...summary.transitions.map((t) => `  ${t.name}: ${t.from} -> ${t.to}`),
    ...(summary.silent
      ? [`  ${summary.silent}: the feed is silent (a deliberate silence: bet stop after FEED_STALE_SECONDS)`]
      : []),
  ];
  return lines.join('\n');
}
