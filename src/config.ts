import { availableParallelism } from 'node:os';

/**
 * Settings come from the environment only, validated once at start. A bad value stops the process
 * with a message that names the variable, what it got and what it accepts.
 */

import { COMPETITION_KEYS, COMPETITIONS } from './domain/competitions.ts';
import { inSimulatedSeconds } from './domain/feed-health.ts';
import { MAX_DECIMAL_ODDS } from './domain/odds-format.ts';
import { DEFAULT_PRICE_POLICY, PRICE_LADDERS, type PricePolicy } from './domain/pricing/published-price.ts';

export const DEFAULT_DEMO_API_KEY = 'altsports-demo-key';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  demoData: boolean;
  /** Null when switched off (`DEMO_API_KEY=off`). */
  demoApiKey: string | null;
  adminApiKey: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  responseEnvelope: 'none' | 'data';
  debugErrors: boolean;
  bodyLimitBytes: number;
  pgPoolSize: number;
  /** Entries of the change log that stream clients can resume from. */
  changeLogSize: number;
  /** Seconds between the push stream's heartbeat comments. */
  streamHeartbeatSeconds: number;
  /** Push streams one API key may hold open at once (per process). */
  streamMaxPerKey: number;
  /** Lifetime of a browser stream token (POST /stream/tokens, issue 28). */
  streamTokenSeconds: number;
  streamKeyCheckSeconds: number;
  /** Seconds between writes of the counted requests to the store (usage and monthly quotas). */
  usageFlushSeconds: number;
  /** Legs a same game parlay (and the bet builder) takes at most; one more is a 422 TOO_MANY_LEGS. */
  sgpMaxLegs: number;
  /** Worker threads drawing parlay simulations (issue 25); default: the machine's parallelism. */
  sgpWorkers: number;
  /** Parlay simulations one API key may have queued or running at once; one more is a 429. */
  sgpSimulationsPerKey: number;
  /** Requests of the rate limit a parlay that starts a new simulation counts as (1: as any request). */
  sgpSimulationCost: number;
  /** Milliseconds a parlay waits for its simulation before a 503 with Retry-After. */
  sgpDeadlineMs: number;
  /** Requests of the rate limit a document built afresh (not held by the response cache) counts as. */
  documentBuildCost: number;
  /** Documents one API key may have built at once; its other cache misses wait their turn. */
  documentBuildsPerKey: number;
  /** Seconds a LIVE event's open markets stay suspended after a score (SCORE_CHANGE), by competition key. */
  scoreChangeSeconds: Record<string, number>;
  /** Seconds of feed silence after which a LIVE event's open markets are suspended (FEED_STALE); 0: never. */
  feedStaleSeconds: number;
  /** The range and ladder every price the engine computes is published on (issue 40); fed prices are served as fed. */
  pricePolicy: PricePolicy;
  /** Days of price history kept (issue 27): older changes are pruned hourly, each outcome's latest kept. */
  oddsHistoryDays: number;
  /** Server-wide default requests per key per clock minute and per UTC day; 0: no limit. */
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  /** Shares rate-limit counts between API processes; unset: counted in each process. */
  redisUrl: string | undefined;
  /** Browser origins allowed to call the API (CORS): none, any (`*`), or a list. */
  corsOrigins: 'none' | '*' | string[];
  /** A listener of its own for the admin API; null: the admin API is on PORT. */
  adminPort: number | null;
  adminHost: string;
  /** Prometheus metrics at /metrics. */
  metrics: boolean;
  /** A listener of its own for /metrics; null: on PORT. */
  metricsPort: number | null;
  /** A request (headers and body) must arrive within this many seconds. */
  requestTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after this many seconds. */
  keepAliveTimeoutSeconds: number;
}

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

/** Documentation of every variable, printed by `altsports config` and mirrored in the README. */
export const CONFIG_VARIABLES = [
  ['PORT', '3000', 'TCP port of the HTTP server'],
  ['HOST', '127.0.0.1', 'interface to listen on (0.0.0.0 for every interface)'],
  ['DATA_DIR', './data', 'directory of the embedded SQLite store'],
  ['DATABASE_URL', '(unset)', 'postgres://user:pass@host:5432/db selects PostgreSQL instead of SQLite'],
  ['DEMO_DATA', 'on', 'on: fill an empty store with the demo dataset at start; off: never'],
  [
    'DEMO_API_KEY',
    DEFAULT_DEMO_API_KEY,
    'public API key made sure of at start (default only while DEMO_DATA is on); off disables it',
  ],
  ['ADMIN_API_KEY', '(unset)', 'key of the admin API (/api/v1/admin); the admin API is closed while unset'],
  ['LOG_LEVEL', 'info', 'fatal, error, warn, info, debug, trace or silent'],
  ['RESPONSE_ENVELOPE', 'none', 'data: wrap every success body as { status, message, data }'],
  ['DEBUG_ERRORS', 'off', 'on: error bodies carry the stack trace (never in production)'],
  ['BODY_LIMIT_MB', '64', 'largest accepted request body, in MiB (feed documents)'],
  ['PG_POOL_SIZE', '10', 'PostgreSQL connections per process'],
  ['CHANGE_LOG_SIZE', '10000', 'changes kept for stream clients resuming with Last-Event-ID'],
  ['STREAM_HEARTBEAT_SECONDS', '15', 'seconds between heartbeat comments on the push stream'],
  ['STREAM_MAX_PER_KEY', '20', 'push streams one API key may hold open at once, per process; the next gets 429'],
  ['STREAM_TOKEN_SECONDS', '600', 'lifetime of the stream tokens a browser opens GET /stream?token= with'],
  [
    'STREAM_KEY_CHECK_SECONDS',
    '2',
    "seconds between checks of open streams' keys: a revoked or rescoped key's streams end",
  ],
  [
    'USAGE_FLUSH_SECONDS',
    '2',
    'seconds between writes of the counted requests to the store (usage, monthly quotas); a crash loses at most this much',
  ],
  ['SGP_MAX_LEGS', '12', 'legs a same game parlay takes at most (2 to 50); one more is a 422 naming it TOO_MANY_LEGS'],
  ['SGP_WORKERS', '(cores)', "worker threads drawing parlay simulations; default: the machine's available parallelism"],
  [
    'SGP_SIMULATIONS_PER_KEY',
    '(SGP_WORKERS - 1, at least 1)',
    'parlay simulations one API key may have queued or running at once; a parlay needing one more gets 429',
  ],
  [
    'SGP_SIMULATION_COST',
    '10',
    'requests of the rate limit a parlay (or bet builder call) counts as when it starts a new simulation',
  ],
  [
    'DOCUMENT_BUILD_COST',
    '5',
    'requests of the rate limit a document counts as when the response cache does not hold it and it is built afresh (a cached answer or a 304 counts as one)',
  ],
  [
    'DOCUMENT_BUILDS_PER_KEY',
    '1',
    "documents one API key may have built at once; its other cache misses wait their turn (identical ones are built once), so that one key's misses do not slow the others",
  ],
  [
    'SGP_DEADLINE_MS',
    '2000',
    'a parlay waits this long for its simulation, then gets 503 with Retry-After (the simulation is kept)',
  ],
  [
    'FEED_STALE_SECONDS',
    '30',
    'seconds of feed silence after which a LIVE event is stale (bet stop: FEED_STALE); 0: no bet stop on silence; ' +
      'the default is 0 while DEMO_DATA is on and `serve` runs without --simulate (nothing feeds the demo)',
  ],
  [
    'SCORE_CHANGE_SUSPEND_SECONDS',
    '0',
    "seconds a LIVE event's open markets are suspended after a score (SCORE_CHANGE): one number for every " +
      'competition, and/or key:seconds pairs, e.g. 10 or spr:5,gsoc:20 or 10,jaialai:0; 0: none; with ' +
      "`serve --simulate` the default is 5 for the team matches, and the seconds are the simulation's (at " +
      '--speed 60, 5 s last a twelfth of a real second)',
  ],
  [
    'MIN_DECIMAL_ODDS',
    String(DEFAULT_PRICE_POLICY.minDecimalOdds),
    'shortest decimal odds the engine publishes (generated markets, exactas on request, parlays, the bet builder); a likelier outcome is quoted at them with their probability',
  ],
  [
    'MAX_DECIMAL_ODDS',
    String(DEFAULT_PRICE_POLICY.maxDecimalOdds),
    'longest decimal odds the engine publishes (above MIN_DECIMAL_ODDS, at most 100000); a longer shot is quoted at them with their probability, never 0',
  ],
  [
    'PRICE_LADDER',
    DEFAULT_PRICE_POLICY.ladder,
    "steps of the engine's decimal odds, always rounded down (towards the house): decimal2 (two decimals), exchange (1.01-2 by 0.01 ... 100-1000 by 10), off (full precision)",
  ],
  [
    'ODDS_HISTORY_DAYS',
    '365',
    "days of price history kept (1 to 36500); older changes are pruned hourly, each outcome's latest kept",
  ],
  [
    'RATE_LIMIT_PER_MINUTE',
    '600',
    'requests per API key per clock minute, for keys without their own limit; 0: no limit',
  ],
  ['RATE_LIMIT_PER_DAY', '0', 'requests per API key per UTC day, for keys without their own limit; 0: no limit'],
  ['REDIS_URL', '(unset)', 'redis://[:password@]host:6379[/db] shares rate-limit counts between API processes'],
  [
    'CORS_ORIGINS',
    '(unset)',
    'browser origins allowed to call the API: * for any, or a comma list (https://a.example,https://b.example)',
  ],
  ['ADMIN_PORT', '(unset)', 'serve the admin API on this port only (on ADMIN_HOST), never on PORT'],
  ['ADMIN_HOST', '127.0.0.1', 'interface of the admin listener (with ADMIN_PORT)'],
  ['METRICS', 'on', 'on: Prometheus metrics at /metrics; off: none'],
  ['METRICS_PORT', '(unset)', 'serve /metrics on this port only (on ADMIN_HOST), never on PORT'],
  ['REQUEST_TIMEOUT_SECONDS', '60', 'a request (headers and body) must arrive within this time, or gets 408'],
  ['KEEP_ALIVE_TIMEOUT_SECONDS', '72', 'an idle keep-alive connection is closed after this time'],
] as const;

/** The most SGP_MAX_LEGS may be: the parlay body's schema takes twice as many ids, so one leg too many is a 422, not a 400. */
export const MAX_SGP_LEGS = 50;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `simulator`: the process runs the demo simulator, which feeds the demo's live events, at
 * `simulatorSpeed` simulated seconds per real second (1 when absent).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { simulator?: boolean; simulatorSpeed?: number } = {},
): Config {
  const problems: string[] = [];
  const get = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name}="${raw}" must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name}="${get(name)}" must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw as T;
  };
  const onOff = (name: string, fallback: boolean) => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['on', 'true', '1', 'yes'].includes(raw)) return true;
    if (['off', 'false', '0', 'no'].includes(raw)) return false;
    problems.push(`${name}="${get(name)}" must be on or off`);
    return fallback;
  };

  const databaseUrl = get('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    problems.push(
      'DATABASE_URL must start with postgres:// or postgresql:// (unset it to use the embedded SQLite store)',
    );
  }
  const demoKey = get('DEMO_API_KEY');
  if (demoKey !== undefined && demoKey.toLowerCase() !== 'off' && demoKey.length < 16) {
    problems.push('DEMO_API_KEY must be at least 16 characters long (or off)');
  }
  const adminApiKey = get('ADMIN_API_KEY');
  if (adminApiKey !== undefined && adminApiKey.length < 16)
    problems.push('ADMIN_API_KEY must be at least 16 characters long');
  const redisUrl = get('REDIS_URL');
  if (redisUrl !== undefined && (!/^rediss?:\/\/.+/.test(redisUrl) || !URL.canParse(redisUrl))) {
    problems.push(
      'REDIS_URL must be a URL starting with redis:// or rediss:// (unset it to count rate limits in each process)',
    );
  }

  const corsOrigins = parseCorsOrigins(get('CORS_ORIGINS'), problems);
  const optionalPort = (name: string) => (get(name) === undefined ? null : integer(name, 0, 1, 65535));
  const port = integer('PORT', 3000, 0, 65535);
  const adminPort = optionalPort('ADMIN_PORT');
  const metricsPort = optionalPort('METRICS_PORT');
  if (adminPort !== null && adminPort === port)
    problems.push(`ADMIN_PORT=${adminPort} must differ from PORT (unset it to serve the admin API on PORT)`);
  if (metricsPort !== null && (metricsPort === port || metricsPort === adminPort))
    problems.push(`METRICS_PORT=${metricsPort} must differ from PORT and ADMIN_PORT`);

  const sgpWorkers = integer('SGP_WORKERS', Math.max(1, availableParallelism()), 1, 256);

  const config: Config = {
    host: get('HOST') ?? '127.0.0.1',
    port,
    dataDir: get('DATA_DIR') ?? './data',
    databaseUrl,
    demoData: onOff('DEMO_DATA', true),
    // The well-known default key exists only alongside the demo data; an explicit key always applies.
    demoApiKey:
      demoKey?.toLowerCase() === 'off' ? null : (demoKey ?? (onOff('DEMO_DATA', true) ? DEFAULT_DEMO_API_KEY : null)),
    adminApiKey,
    logLevel: choice('LOG_LEVEL', LOG_LEVELS, 'info'),
    responseEnvelope: choice('RESPONSE_ENVELOPE', ['none', 'data'] as const, 'none'),
    debugErrors: onOff('DEBUG_ERRORS', false),
    bodyLimitBytes: integer('BODY_LIMIT_MB', 64, 1, 1024) * 1024 * 1024,
    pgPoolSize: integer('PG_POOL_SIZE', 10, 1, 500),
    changeLogSize: integer('CHANGE_LOG_SIZE', 10_000, 100, 10_000_000),
    streamHeartbeatSeconds: integer('STREAM_HEARTBEAT_SECONDS', 15, 1, 3600),
    streamMaxPerKey: integer('STREAM_MAX_PER_KEY', 20, 1, 100_000),
    streamTokenSeconds: integer('STREAM_TOKEN_SECONDS', 600, 10, 86_400),
    streamKeyCheckSeconds: integer('STREAM_KEY_CHECK_SECONDS', 2, 1, 60),
    usageFlushSeconds: integer('USAGE_FLUSH_SECONDS', 2, 1, 60),
    sgpMaxLegs: integer('SGP_MAX_LEGS', 12, 2, MAX_SGP_LEGS),
    sgpWorkers,
    // One key never holds every draw thread: another key's first parlay starts at once (issue 25).
    sgpSimulationsPerKey: integer('SGP_SIMULATIONS_PER_KEY', Math.max(1, sgpWorkers - 1), 1, 1000),
    sgpSimulationCost: integer('SGP_SIMULATION_COST', 10, 1, 1000),
    sgpDeadlineMs: integer('SGP_DEADLINE_MS', 2000, 50, 600_000),
    documentBuildCost: integer('DOCUMENT_BUILD_COST', 5, 1, 1000),
    documentBuildsPerKey: integer('DOCUMENT_BUILDS_PER_KEY', 1, 1, 1000),
    // The demo without its simulator has no feed behind it: silence would suspend every live demo event.
    feedStaleSeconds: integer('FEED_STALE_SECONDS', onOff('DEMO_DATA', true) && !options.simulator ? 0 : 30, 0, 86_400),
    // With the simulator, a goal or an end suspends a team match briefly, to show SCORE_CHANGE, for
    // seconds of the simulation's clock (issue 41): at --speed 60, 5 s are a twelfth of a real second.
    scoreChangeSeconds: inSimulatedSeconds(
      parseScoreChangeSeconds(
        get('SCORE_CHANGE_SUSPEND_SECONDS') ?? (options.simulator ? SIMULATOR_SCORE_CHANGE : undefined),
        problems,
      ),
      options.simulator ? (options.simulatorSpeed ?? 1) : 1,
    ),
    pricePolicy: parsePricePolicy(
      { min: get('MIN_DECIMAL_ODDS'), max: get('MAX_DECIMAL_ODDS') },
      choice('PRICE_LADDER', PRICE_LADDERS, DEFAULT_PRICE_POLICY.ladder),
      problems,
    ),
    oddsHistoryDays: integer('ODDS_HISTORY_DAYS', 365, 1, 36_500),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000_000),
    rateLimitPerDay: integer('RATE_LIMIT_PER_DAY', 0, 0, 1_000_000_000),
    redisUrl,
    corsOrigins,
    adminPort,
    adminHost: get('ADMIN_HOST') ?? '127.0.0.1',
    metrics: onOff('METRICS', true),
    metricsPort,
    requestTimeoutSeconds: integer('REQUEST_TIMEOUT_SECONDS', 60, 1, 3600),
    keepAliveTimeoutSeconds: integer('KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** MIN_DECIMAL_ODDS and MAX_DECIMAL_ODDS: decimal odds, the shortest above 1, the longest above it and at most what a feed carries. */
function parsePricePolicy(
  raw: { min: string | undefined; max: string | undefined },
  ladder: PricePolicy['ladder'],
  problems: string[],
): PricePolicy {
  const odds = (name: string, text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (/^\d+(\.\d+)?$/.test(text) && value > 1 && value <= MAX_DECIMAL_ODDS) return value;
    problems.push(`${name}="${text}" must be decimal odds above 1 and at most ${MAX_DECIMAL_ODDS}`);
    return fallback;
  };
  const minDecimalOdds = odds('MIN_DECIMAL_ODDS', raw.min, DEFAULT_PRICE_POLICY.minDecimalOdds);
  const maxDecimalOdds = odds('MAX_DECIMAL_ODDS', raw.max, DEFAULT_PRICE_POLICY.maxDecimalOdds);
  if (!(maxDecimalOdds > minDecimalOdds))
    problems.push(
      `MAX_DECIMAL_ODDS=${maxDecimalOdds} must be above MIN_DECIMAL_ODDS=${minDecimalOdds}: the engine publishes prices between them`,
    );
  return { minDecimalOdds, maxDecimalOdds, ladder };
}

function describeScoreChangeSeconds(seconds: Record<string, number>): string {
  const set = Object.entries(seconds).filter(([, n]) => n > 0);
  return set.length === 0 ? '0 (no suspension after a score)' : set.map(([key, n]) => `${key}:${n}`).join(',');
}

/** SCORE_CHANGE_SUSPEND_SECONDS's default with the demo simulator: 5 s for the team matches. */
const SIMULATOR_SCORE_CHANGE = COMPETITIONS.filter((c) => c.participants === 'teams')
  .map((c) => `${c.key}:5`)
  .join(',');

/** SCORE_CHANGE_SUSPEND_SECONDS: `10` (every competition), `spr:5,gsoc:20`, or both (`10,jaialai:0`). */
function parseScoreChangeSeconds(raw: string | undefined, problems: string[]): Record<string, number> {
  const seconds: Record<string, number> = {};
  if (raw === undefined) return seconds;
  const bad: string[] = [];
  for (const part of raw.split(',').map((p) => p.trim())) {
    const [key, value] = part.includes(':') ? part.split(':', 2).map((p) => p.trim()) : [undefined, part];
    const n = Number(value);
    if (!/^\d+$/.test(value ?? '') || n > 3600 || (key !== undefined && !COMPETITION_KEYS.includes(key)))
      bad.push(part);
    else if (key === undefined) for (const k of COMPETITION_KEYS) seconds[k] ??= n;
    else seconds[key] = n;
  }
  if (bad.length > 0)
    problems.push(
      `SCORE_CHANGE_SUSPEND_SECONDS="${raw}" must be whole seconds up to 3600, for every competition or as key:seconds pairs with competition keys (${COMPETITION_KEYS.join(', ')}); not understood: ${bad.join(', ')}`,
    );
  return seconds;
}

/** `*`, or a comma list of origins (scheme, host and port, as browsers send them in `Origin`). */
function parseCorsOrigins(raw: string | undefined, problems: string[]): Config['corsOrigins'] {
  if (raw === undefined) return 'none';
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const bad = origins.filter((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin);
  if (origins.length === 0 || bad.length > 0) {
    problems.push(
      `CORS_ORIGINS="${raw}" must be * or a comma list of origins such as https://app.example (no path, no trailing slash)${bad.length ? `; not an origin: ${bad.join(', ')}` : ''}`,
    );
    return 'none';
  }
  return origins;
}

/** The effective configuration with secrets masked, for `altsports config` and start-up logs. */
export function describeConfig(config: Config): Record<string, string> {
  const mask = (value: string | null | undefined) =>
    value ? `${value.slice(0, 4)}…(${value.length} chars)` : '(unset)';
  const url = config.databaseUrl ? new URL(config.databaseUrl) : undefined;
  if (url?.password) url.password = '*****';
  const redis = config.redisUrl ? new URL(config.redisUrl) : undefined;
  if (redis?.password) redis.password = '*****';
  return {
    PORT: String(config.port),
    HOST: config.host,
    DATA_DIR: config.dataDir,
    DATABASE_URL: url ? url.toString() : '(unset: embedded SQLite)',
    DEMO_DATA: config.demoData ? 'on' : 'off',
    DEMO_API_KEY: config.demoApiKey ?? 'off',
    ADMIN_API_KEY: mask(config.adminApiKey),
    LOG_LEVEL: config.logLevel,
    RESPONSE_ENVELOPE: config.responseEnvelope,
    DEBUG_ERRORS: config.debugErrors ? 'on' : 'off',
    BODY_LIMIT_MB: String(config.bodyLimitBytes / 1024 / 1024),
    PG_POOL_SIZE: String(config.pgPoolSize),
    CHANGE_LOG_SIZE: String(config.changeLogSize),
    STREAM_HEARTBEAT_SECONDS: String(config.streamHeartbeatSeconds),
    STREAM_MAX_PER_KEY: String(config.streamMaxPerKey),
    STREAM_TOKEN_SECONDS: String(config.streamTokenSeconds),
    STREAM_KEY_CHECK_SECONDS: String(config.streamKeyCheckSeconds),
    USAGE_FLUSH_SECONDS: String(config.usageFlushSeconds),
    SGP_MAX_LEGS: String(config.sgpMaxLegs),
    SGP_WORKERS: String(config.sgpWorkers),
    SGP_SIMULATIONS_PER_KEY: String(config.sgpSimulationsPerKey),
    SGP_SIMULATION_COST: String(config.sgpSimulationCost),
    DOCUMENT_BUILD_COST: String(config.documentBuildCost),
    DOCUMENT_BUILDS_PER_KEY: String(config.documentBuildsPerKey),
    SGP_DEADLINE_MS: String(config.sgpDeadlineMs),
    FEED_STALE_SECONDS: config.feedStaleSeconds === 0 ? '0 (no bet stop on silence)' : String(config.feedStaleSeconds),
    SCORE_CHANGE_SUSPEND_SECONDS: describeScoreChangeSeconds(config.scoreChangeSeconds),
    MIN_DECIMAL_ODDS: String(config.pricePolicy.minDecimalOdds),
    MAX_DECIMAL_ODDS: String(config.pricePolicy.maxDecimalOdds),
    PRICE_LADDER: config.pricePolicy.ladder,
    ODDS_HISTORY_DAYS: String(config.oddsHistoryDays),
    RATE_LIMIT_PER_MINUTE: config.rateLimitPerMinute === 0 ? '0 (no limit)' : String(config.rateLimitPerMinute),
    RATE_LIMIT_PER_DAY: config.rateLimitPerDay === 0 ? '0 (no limit)' : String(config.rateLimitPerDay),
    REDIS_URL: redis ? redis.toString() : '(unset: rate limits counted per process)',
    CORS_ORIGINS:
      config.corsOrigins === 'none'
        ? '(unset: no cross-origin browser access)'
        : config.corsOrigins === '*'
          ? '*'
          : config.corsOrigins.join(','),
    ADMIN_PORT: config.adminPort === null ? '(unset: the admin API is on PORT)' : String(config.adminPort),
    ADMIN_HOST: config.adminHost,
    METRICS: config.metrics ? 'on' : 'off',
    METRICS_PORT: config.metricsPort === null ? '(unset: /metrics is on PORT)' : String(config.metricsPort),
    REQUEST_TIMEOUT_SECONDS: String(config.requestTimeoutSeconds),
    KEEP_ALIVE_TIMEOUT_SECONDS: String(config.keepAliveTimeoutSeconds),
  };
}
