import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import type { BetStopRules } from '../domain/feed-health.ts';
import type { PricePolicy } from '../domain/pricing/published-price.ts';
import { ADMIN_KEY_SHARED_SCHEMAS } from '../shapes/admin-keys.ts';
import { EVENT_SHARED_SCHEMAS } from '../shapes/events.ts';
import { FutureListingItem, FutureOddsItem } from '../shapes/futures.ts';
import { ODDS_SHARED_SCHEMAS } from '../shapes/odds.ts';
import { SnapshotMarket } from '../shapes/odds-snapshot.ts';
import { RESULTS_SHARED_SCHEMAS } from '../shapes/results.ts';
import { SPORT_SHARED_SCHEMAS } from '../shapes/sport-events.ts';
import { SportListingItem } from '../shapes/sports.ts';
import { USAGE_SHARED_SCHEMAS } from '../shapes/usage.ts';
import { type ChangeFeed, openChangeFeed } from '../store/change-feed.ts';
import type { Store } from '../store/database.ts';
import { VERSION } from '../version.ts';
import { AccessLog, lazyRequestLogger } from './access-log.ts';
import { stdoutLines } from './log-lines.ts';
import { authPlugin } from './plugins/auth.ts';
import { betStopPlugin } from './plugins/bet-stop.ts';
import { clientErrorHandler, errorsPlugin, formatSchemaErrors, frameworkErrorHandler } from './plugins/errors.ts';
import { eventStreamPlugin } from './plugins/event-stream.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { listParamsPlugin } from './plugins/list-params.ts';
import { listenerServer, listenersPlugin } from './plugins/listeners.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { oddsFormatPlugin } from './plugins/odds-format.ts';
import { oddsHistoryRetentionPlugin } from './plugins/odds-history-retention.ts';
import { ADMIN_PREFIX, openApiPlugin, PUBLIC_PREFIX } from './plugins/openapi.ts';
import { parlayPricingPlugin } from './plugins/parlay-pricing.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { requestStepsPlugin } from './plugins/request-steps.ts';
import { responseCachePlugin } from './plugins/response-cache.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { requestId, requestIdAndEnvelope } from './request-id.ts';
import { declareRouteOf } from './route-config.ts';
import { adminFeedRoutes } from './routes/admin-feed.ts';
import { adminKeysRoutes } from './routes/admin-keys.ts';
import { adminMarketsRoutes } from './routes/admin-markets.ts';
import { boardRoutes } from './routes/board.ts';
import { changesRoutes } from './routes/changes.ts';
import { eventsRoutes } from './routes/events.ts';
import { feedStatusRoutes } from './routes/feed-status.ts';
import { futuresRoutes } from './routes/futures.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { oddsRoutes } from './routes/odds.ts';
import { oddsHistoryRoutes } from './routes/odds-history.ts';
import { oddsSnapshotRoutes } from './routes/odds-snapshot.ts';
import { resultsRoutes } from './routes/results.ts';
import { sportEventsRoutes } from './routes/sport-events.ts';
import { sportsRoutes } from './routes/sports.ts';
import { streamRoutes } from './routes/stream.ts';
import { usageRoutes } from './routes/usage.ts';
import { lazyCompilers } from './schema-compilers.ts';
import { ServerErrorResponse } from './schemas/common.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    /** Every change committed to the store, by any node. */
    changeFeed: ChangeFeed;
    /** FEED_STALE_SECONDS and SCORE_CHANGE_SUSPEND_SECONDS: the bet stops derived at read time. */
    betStopRules: BetStopRules;
    /** MIN_DECIMAL_ODDS, MAX_DECIMAL_ODDS and PRICE_LADDER: how the prices the engine computes are published. */
    pricePolicy: PricePolicy;
  }
}

export interface AppOptions {
  config: Config;
  store: Store;
  /** Pino logger options, or false for none (tests). Defaults to JSON logs at the configured level. */
  logger?: boolean | Record<string, unknown>;
  /** Fastify's schema compilers (default: each route's compiled on first use); the tests share theirs across apps. */
  schemaController?: FastifyServerOptions['schemaController'];
}

/**
 * JSON lines on stdout at the configured level, written asynchronously in batches (log-lines.ts):
 * rather than one blocking write per line on the request path (docs/decisions.md "Logs").
 */
function defaultLogger(config: Config) {
  return { level: config.logLevel, stream: stdoutLines() };
}

export async function buildApp({ config, store, logger, schemaController }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? defaultLogger(config),
    logController: new AccessLog(),
    childLoggerFactory: lazyRequestLogger,
    schemaController: schemaController ?? lazyCompilers(),
    bodyLimit: config.bodyLimitBytes,
    serverFactory: (handler) => listenerServer(config, handler),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // A request reaching a closing server is still answered (with Connection: close, see
    // closeGracefully), not with Fastify's own 503 body: the store closes only after the app.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', allErrors: false, verbose: true } },
    schemaErrorFormatter: formatSchemaErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  declareRouteOf(app);
  const changeFeed = await decorateStore(app, config, store);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await registerPipeline(app, config, store, changeFeed);
  await registerRoutes(app, config);
  return app;
}

/** The store, its change feed and what reads derive from it, as the app's decorations. */
async function decorateStore(app: FastifyInstance, config: Config, store: Store): Promise<ChangeFeed> {
  app.decorate('store', store);
  const changeFeed = await openChangeFeed(store, {
    onError: (error) => app.log.warn({ err: error }, 'change feed: %s', error.message),
  });
  app.decorate('changeFeed', changeFeed);
  const betStopRules = { feedStaleSeconds: config.feedStaleSeconds, scoreChangeSeconds: config.scoreChangeSeconds };
  app.decorate('betStopRules', betStopRules);
  app.decorate('pricePolicy', config.pricePolicy);
  await app.register(betStopPlugin, { store, rules: betStopRules });
  await app.register(oddsHistoryRetentionPlugin, { store, oddsHistoryDays: config.oddsHistoryDays });
  app.addHook('onClose', () => changeFeed.close());
  return changeFeed;
}

/** Shapes the routes' schemas refer to by id (and the OpenAPI document lists as components). */
const SHARED_SCHEMAS = [
  ServerErrorResponse,
  SportListingItem,
  ...EVENT_SHARED_SCHEMAS,
  ...RESULTS_SHARED_SCHEMAS,
  ...ODDS_SHARED_SCHEMAS,
  ...SPORT_SHARED_SCHEMAS,
  FutureListingItem,
  FutureOddsItem,
  ...USAGE_SHARED_SCHEMAS,
  ...ADMIN_KEY_SHARED_SCHEMAS,
  SnapshotMarket,
];

/**
 * The request pipeline, one plugin per concern. The order of these registrations is the order of
 * their hooks and of their onRequest steps (plugins/request-steps.ts): every answer carries the
 * security headers, a 401 comes before a 429, and a cached answer is sent after the key's limits
 * are counted.
 */
async function registerPipeline(app: FastifyInstance, config: Config, store: Store, changeFeed: ChangeFeed) {
  await app.register(metricsPlugin, { store });
  await app.register(errorsPlugin, { debugErrors: config.debugErrors });
  await app.register(securityHeadersPlugin, { corsOrigins: config.corsOrigins });
  // After CORS's own hook, so that a 401 or a 429 carries its headers.
  await app.register(requestStepsPlugin);
  await app.register(listenersPlugin, { config });
  await app.register(inputGuardPlugin);
  await app.register(listParamsPlugin);
  await app.register(authPlugin, {
    store,
    adminApiKey: config.adminApiKey,
    streamTokenSeconds: config.streamTokenSeconds,
  });
  await app.register(rateLimitPlugin, {
    defaults: { perMinute: config.rateLimitPerMinute, perDay: config.rateLimitPerDay },
    redisUrl: config.redisUrl,
    store,
    usageFlushSeconds: config.usageFlushSeconds,
  });
  await app.register(parlayPricingPlugin, { settings: config, store, feed: changeFeed });
  await app.register(openApiPlugin, {
    version: VERSION,
    demoApiKey: config.demoApiKey,
    sgpMaxLegs: config.sgpMaxLegs,
  });
  // Before the response cache, whose onSend hook then keeps the final (wrapped) bytes.
  app.addHook('onSend', requestIdAndEnvelope(config));
  await app.register(oddsFormatPlugin);
  await app.register(responseCachePlugin, {
    store,
    feed: changeFeed,
    buildCost: config.documentBuildCost,
    buildsPerKey: config.documentBuildsPerKey,
  });
  await app.register(eventStreamPlugin, {
    heartbeatMs: config.streamHeartbeatSeconds * 1000,
    maxPerKey: config.streamMaxPerKey,
    keys: { store, checkMs: config.streamKeyCheckSeconds * 1000 },
  });
}

async function registerRoutes(app: FastifyInstance, config: Config) {
  await app.register(healthRoutes);
  await app.register(boardRoutes, { demoApiKey: config.demoApiKey });
  if (config.metrics) await app.register(metricsRoutes);
  await app.register(
    async (publicApi) => {
      await publicApi.register(sportsRoutes);
      await publicApi.register(eventsRoutes);
      await publicApi.register(resultsRoutes);
      await publicApi.register(oddsHistoryRoutes, { oddsHistoryDays: config.oddsHistoryDays });
      await publicApi.register(oddsRoutes, {
        sgpMaxLegs: config.sgpMaxLegs,
        simulations: {
          cost: config.sgpSimulationCost,
          deadlineMs: config.sgpDeadlineMs,
        },
      });
      await publicApi.register(sportEventsRoutes);
      await publicApi.register(futuresRoutes);
      await publicApi.register(streamRoutes, { tokenSeconds: config.streamTokenSeconds });
      await publicApi.register(usageRoutes);
      await publicApi.register(oddsSnapshotRoutes);
      await publicApi.register(changesRoutes);
      await publicApi.register(feedStatusRoutes, { feedStaleSeconds: config.feedStaleSeconds });
    },
    { prefix: PUBLIC_PREFIX },
  );
  await app.register(adminFeedRoutes, { prefix: ADMIN_PREFIX });
  await app.register(adminMarketsRoutes, { prefix: ADMIN_PREFIX });
  await app.register(adminKeysRoutes, { prefix: ADMIN_PREFIX });
}
