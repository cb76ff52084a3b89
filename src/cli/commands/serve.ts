import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../config.ts';
import type { Store } from '../../store/database.ts';
import type { Command } from '../main.ts';
import { openMigratedStore } from './open-store.ts';
import {
  SIMULATE_OPTIONS,
  SIMULATE_OPTIONS_HELP,
  type SimulateSettings,
  simulateSettings,
  startLine,
} from './simulate.ts';

export const serveCommand: Command = {
  usage: [
    'Usage: altsports serve [--simulate [--interval S] [--speed X] [--competitions L] [--steady]]',
    '',
    'Starts the API on HOST:PORT from the configured store, migrating it first. An empty store is',
    'filled with the demo dataset unless DEMO_DATA=off. SIGTERM or SIGINT stops it cleanly: new',
    'connections are refused, every request already sent is answered (with Connection: close), stream',
    'clients get `event: close`, then the process exits 0. Settings: see `altsports config --help`.',
    '',
    '  --simulate            once listening, move the demo data forward in real time, as',
    '                        `altsports simulate` does (`npm start -- --simulate`); options:',
    ...SIMULATE_OPTIONS_HELP.map((line) => `  ${line}`),
  ].join('\n'),
  options: { simulate: { type: 'boolean' }, ...SIMULATE_OPTIONS },
  async run({ values }) {
    const simulation = simulateSettings(values);
    if (
      'error' in simulation ||
      (!values.simulate && Object.keys(SIMULATE_OPTIONS).some((name) => values[name] !== undefined))
    ) {
      console.error(
        `altsports serve: ${'error' in simulation ? simulation.error : '--interval, --speed and --competitions go with --simulate'}`,
      );
      return 2;
    }
    const config = loadConfig(process.env, {
      simulator: values.simulate === true,
      ...('speed' in simulation ? { simulatorSpeed: simulation.speed } : {}),
    });
    const { app, store } = await startApp(config);
    // The simulator writes through the same store: it stops (its tick in flight done) before the store closes.
    const stopSimulator = new AbortController();
    let simulator: Promise<void> = Promise.resolve();
    await closeOnSignal(app, store, async () => {
      stopSimulator.abort();
      await simulator;
    });
    const origins = await app.listenAll().catch((error: unknown) => failedToListen(error, app, store));
    await announce(app, config, store, origins);
    if (values.simulate) {
      const simulate = await import('../../demo/simulate.ts');
      simulator = runSimulator(simulate, app, store, simulation, stopSimulator.signal);
    }
  },
};

/**
 * The store opened and migrated, and the app built on it; an empty store gets the demo dataset,
 * generated on a thread of its own while the app is built.
 */
async function startApp(config: Config): Promise<{ app: FastifyInstance; store: Store }> {
  // Loaded here rather than at the top, so that `altsports serve --help` answers at once.
  const { loadDemoData, storeIsEmpty } = await import('../../demo/load-demo.ts');
  const store = await openMigratedStore(config, { checkIntegrity: true });
  const now = new Date();
  const demo =
    config.demoData && (await storeIsEmpty(store))
      ? (await import('../../demo/generate-thread.ts')).generateInThread({ now })
      : null;
  const { ensureApiKey } = await import('../../access/api-keys.ts');
  const { buildApp } = await import('../../http/app.ts');
  const app = await buildApp({ config, store }).catch(async (error: unknown) => {
    await demo?.close();
    throw error;
  });
  if (demo) {
    app.log.info('empty store: loading the demo dataset');
    const { events } = await loadDemoData(store, { now, documents: demo });
    app.log.info({ events }, 'demo dataset loaded');
  }
  if (config.demoApiKey) await ensureApiKey(store, 'demo', config.demoApiKey);
  return { app, store };
}

/**
 * SIGTERM, SIGINT and the like close gracefully: the app drains, `stopFirst` stops what writes to the
 * store, then the store closes. A second signal, or the delay passed, exits at once.
 */
async function closeOnSignal(app: FastifyInstance, store: Store, stopFirst: () => Promise<void>): Promise<void> {
  const { default: closeWithGrace } = await import('close-with-grace');
  closeWithGrace(
    { delay: DRAIN_TIMEOUT_MS + 5_000, logger: { error: (message) => app.log.error(message) } },
    async ({ signal, err }) => {
      if (err) app.log.fatal({ err }, 'shutting down after an unexpected error');
      else app.log.info({ signal }, 'shutting down: refusing new connections, answering requests already sent');
      const closed = app.closeGracefully({ idleMs: DRAIN_IDLE_MS, timeoutMs: DRAIN_TIMEOUT_MS });
      await stopFirst();
      await closed;
      await store.close();
      app.log.info('stopped');
      if (err) throw err;
    },
  );
}

/** Where the server listens: one log line, and a few lines on stderr for whoever started it. */
async function announce(
  app: FastifyInstance,
  config: Config,
  store: Store,
  origins: Awaited<ReturnType<FastifyInstance['listenAll']>>,
): Promise<void> {
  const { ADMIN_PREFIX, DOCS_PATH, PUBLIC_PREFIX } = await import('../../http/plugins/openapi.ts');
  const { METRICS_PATH } = await import('../../http/routes/metrics.ts');
  const origin = origins.public as string;
  const adminOrigin = origins.admin ?? origin;
  const metricsUrl = config.metrics ? `${origins.metrics ?? origin}${METRICS_PATH}` : null;
  app.log.info(
    {
      baseUrl: `${origin}${PUBLIC_PREFIX}`,
      docsUrl: `${origin}${DOCS_PATH}`,
      adminUrl: `${adminOrigin}${ADMIN_PREFIX}`,
      metricsUrl,
      demoApiKey: config.demoApiKey,
      store: store.dialect,
      location: store.location,
    },
    'altsports is listening',
  );
  process.stderr.write(
    [
      '',
      `  altsports API   ${origin}${PUBLIC_PREFIX}`,
      `  docs            ${origin}${DOCS_PATH}`,
      `  admin API       ${adminOrigin}${ADMIN_PREFIX}${config.adminApiKey ? '' : ' (closed: no ADMIN_API_KEY)'}`,
      `  metrics         ${metricsUrl ?? '(off)'}`,
      `  demo API key    ${config.demoApiKey ?? '(off)'}`,
      `  store           ${store.dialect} ${store.location}`,
      `  try             curl -H 'X-API-KEY: ${config.demoApiKey ?? '<key>'}' ${origin}${PUBLIC_PREFIX}/sports`,
      '',
      '',
    ].join('\n'),
  );
}

/** `--simulate`: the demo moved forward in real time until `signal`; a failure is logged, and the server goes on. */
async function runSimulator(
  { createSimulator, DEMO_SILENCES, prepareSimulation }: typeof import('../../demo/simulate.ts'),
  app: FastifyInstance,
  store: Store,
  simulation: SimulateSettings,
  signal: AbortSignal,
): Promise<void> {
  try {
    const prepared = await prepareSimulation(store, { competitions: simulation.competitions });
    app.log.info(
      { clock: prepared.clock, loaded: prepared.loaded, speed: simulation.speed },
      `simulator: ${startLine(prepared, simulation.speed)}`,
    );
    const running = createSimulator(store, {
      anchor: prepared.anchors,
      clock: prepared.clock,
      speed: simulation.speed,
      competitions: simulation.competitions,
      ...(simulation.silences ? { silences: DEMO_SILENCES } : {}),
    });
    let silent: string | null = null;
    await running.run({
      intervalMs: simulation.intervalMs,
      signal,
      onTick: (summary) => {
        app.log.debug({ tick: summary }, 'simulator tick');
        if (summary.silent && summary.silent !== silent)
          app.log.info({ competition: summary.silent }, `simulator: the feed goes silent about ${summary.silent}`);
        silent = summary.silent;
        for (const t of summary.transitions)
          app.log.info({ eventId: t.eventId, from: t.from, to: t.to, clock: summary.clock }, `${t.name}: ${t.to}`);
      },
    });
  } catch (error) {
    app.log.error({ err: error }, 'simulator stopped');
  }
}

/** How long a server that could not listen may take to close before the process exits anyway. */
const FAILED_START_CLOSE_MS = 1_000;

/**
 * A listener could not start: one line naming the setting (not a stack), what did start closed, and
 * the process ended with 1 at once, so that a supervisor restarts it. The exit is explicit: the
 * app's worker threads and connections need not all have closed within the time a supervisor waits.
 */
async function failedToListen(
  error: unknown,
  app: { close(): Promise<unknown>; log: { error(obj: object, msg: string): void } },
  store: { close(): Promise<unknown> },
): Promise<never> {
  const { ListenError } = await import('../../http/plugins/listeners.ts');
  if (!(error instanceof ListenError)) throw error;
  console.error(`altsports serve: ${error.message}`);
  app.log.error({ err: error.cause }, error.message);
  const closed = app
    .close()
    .then(() => store.close())
    .catch(() => {});
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, FAILED_START_CLOSE_MS).unref())]);
  process.exit(1);
}

/** After SIGTERM, how long idle keep-alive connections may still bring a request (one already on its way). */
const DRAIN_IDLE_MS = 1_000;
/** After SIGTERM, how long requests may take to finish before their connections are cut. */
const DRAIN_TIMEOUT_MS = 30_000;
