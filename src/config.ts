import { availableParallelism } from 'node:os';
import { type Static, type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import { COMPETITION_KEYS, COMPETITIONS } from './domain/competitions.ts';
import { CodedError, ERRORS } from './domain/errors.ts';
import { inSimulatedSeconds } from './domain/feed-health.ts';
import { MAX_DECIMAL_ODDS } from './domain/odds-format.ts';
import { DEFAULT_PRICE_POLICY, PRICE_LADDERS, type PricePolicy } from './domain/pricing/published-price.ts';

/**
 * Settings come from the environment only, validated once at start. A bad value stops the process
 * with a message that names the variable, what it got and what it accepts.
 *
 * SETTINGS declares each variable once: its name (the field's name in SCREAMING_SNAKE_CASE), type,
 * range, default and meaning. The Config type, the checks and their messages, `altsports config` and
 * the README's table (`npm run config:readme`) are all read from it.
 */

export const DEFAULT_DEMO_API_KEY = 'altsports-demo-key';

/** The most SGP_MAX_LEGS may be: the parlay body's schema takes twice as many ids, so one leg too many is a 422, not a 400. */
export const MAX_SGP_LEGS = 50;

/** What a setting's schema may say beyond JSON Schema, for the messages, `altsports config` and the README. */
type Annotations = {
  description: string;
  /** The README's default where it is not the schema's `default` (computed at start, or markdown). */
  defaultText?: string;
  /** What an unset value means, shown by `altsports config`. */
  unset?: string;
  /** What 0 means, shown by `altsports config`. */
  zero?: string;
  /** `key`: shown as its first 4 characters; `url`: its password masked. Neither is echoed in a message. */
  secret?: 'key' | 'url';
  /** The message's "must ..." for a value the schema refuses, where its type does not say it well. */
  must?: string;
};

const whole = (minimum: number, maximum: number, defaultValue: number | undefined, notes: Annotations) =>
  Type.Integer({ minimum, maximum, ...(defaultValue === undefined ? {} : { default: defaultValue }), ...notes });
const switched = (defaultValue: boolean, notes: Annotations) => Type.Boolean({ default: defaultValue, ...notes });
const oneOf = <const T extends string[]>(values: readonly [...T], defaultValue: T[number], notes: Annotations) =>
  Type.Enum(values, { default: defaultValue, ...notes });
const text = (notes: Annotations & { default?: string; pattern?: string; minLength?: number }) => Type.String(notes);
const decimalOdds = (defaultValue: number, notes: Annotations) =>
  Type.Number({
    exclusiveMinimum: 1,
    maximum: MAX_DECIMAL_ODDS,
    default: defaultValue,
    must: `be decimal odds above 1 and at most ${MAX_DECIMAL_ODDS}`,
    ...notes,
  });
const port = (notes: Annotations) => Type.Optional(whole(1, 65535, undefined, notes));

export const SETTINGS = Type.Object({
  port: whole(0, 65535, 3000, { description: 'TCP port of the HTTP server' }),
  host: text({ default: '127.0.0.1', description: 'interface to listen on (`0.0.0.0` for every interface)' }),
  dataDir: text({
    default: './data',
    description: 'directory of the embedded SQLite store (`altsports.db`, WAL mode)',
  }),
  databaseUrl: Type.Optional(
    text({
      pattern: '^postgres(ql)?://.+',
      secret: 'url',
      unset: 'embedded SQLite',
      must: 'start with postgres:// or postgresql:// (unset it to use the embedded SQLite store)',
      description: '`postgres://user:pass@host:5432/db` selects PostgreSQL instead of SQLite',
    }),
  ),
  demoData: switched(true, {
    description: '`on`: fill an empty store with the demo dataset at start; `off`: never',
  }),
  demoApiKey: Type.Optional(
    text({
      pattern: '^(?:[Oo][Ff][Ff]|.{16,})$',
      defaultText: `\`${DEFAULT_DEMO_API_KEY}\``,
      must: 'be at least 16 characters long (or off)',
      description: 'public key made sure of at start (the default only while `DEMO_DATA` is on); `off` disables it',
    }),
  ),
  adminApiKey: Type.Optional(
    text({
      minLength: 16,
      secret: 'key',
      must: 'be at least 16 characters long',
      description: 'key of the admin API (`/api/v1/admin`); the admin API is closed while unset',
    }),
  ),
  logLevel: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', {
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON lines with request ids',
  }),
  responseEnvelope: oneOf(['none', 'data'], 'none', {
    description: '`data`: wrap every success body as `{ "status", "message", "data" }`',
  }),
  debugErrors: switched(false, { description: '`on`: error bodies carry the stack trace (never in production)' }),
  bodyLimitMb: whole(1, 1024, 64, { description: 'largest accepted request body (feed documents), MiB' }),
  pgPoolSize: whole(1, 500, 10, { description: 'PostgreSQL connections per process' }),
  rateLimitPerMinute: whole(0, 1_000_000_000, 600, {
    zero: 'no limit',
    description: 'requests per API key per clock minute, for keys without their own limit; `0`: no limit',
  }),
  rateLimitPerDay: whole(0, 1_000_000_000, 0, {
    zero: 'no limit',
    description: 'requests per API key per UTC day, for keys without their own limit; `0`: no limit',
  }),
  redisUrl: Type.Optional(
    text({
      pattern: '^rediss?://[^\\s]+$',
      secret: 'url',
      unset: 'rate limits counted per process',
      must: 'be a URL starting with redis:// or rediss:// (unset it to count rate limits in each process)',
      description:
        '`redis://[:password@]host:6379[/db]` (or `rediss://`) shares rate-limit counts between API processes',
    }),
  ),
  changeLogSize: whole(100, 10_000_000, 10_000, {
    description: 'changes kept for push-stream clients resuming with `Last-Event-ID`',
  }),
  streamHeartbeatSeconds: whole(1, 3600, 15, {
    description: 'seconds between heartbeat comments on the push stream',
  }),
  streamMaxPerKey: whole(1, 100_000, 20, {
    description: 'push streams one API key may hold open at once, per process; the next gets 429',
  }),
  streamTokenSeconds: whole(10, 86_400, 600, {
    description: 'lifetime of the stream tokens a browser opens GET /stream?token= with',
  }),
  streamKeyCheckSeconds: whole(1, 60, 2, {
    description: "seconds between checks of open streams' keys: a revoked or rescoped key's streams end",
  }),
  usageFlushSeconds: whole(1, 60, 2, {
    description:
      'seconds between writes of the counted requests to the store (usage, monthly quotas); a crash loses at most this much',
  }),
  sgpMaxLegs: whole(2, MAX_SGP_LEGS, 12, {
    description: `legs a same game parlay takes at most (2 to ${MAX_SGP_LEGS}); one more is a 422 naming it \`TOO_MANY_LEGS\``,
  }),
  sgpWorkers: whole(1, 256, Math.max(1, availableParallelism()), {
    defaultText: 'cores',
    description: "worker threads drawing parlay simulations; default: the machine's available parallelism",
  }),
  sgpSimulationsPerKey: Type.Optional(
    whole(1, 1000, undefined, {
      defaultText: '`SGP_WORKERS` - 1 (at least 1)',
      description:
        'parlay simulations one API key may have queued or running at once; a parlay needing one more gets 429',
    }),
  ),
  sgpSimulationCost: whole(1, 1000, 10, {
    description: 'requests of the rate limit a parlay (or bet builder call) counts as when it starts a new simulation',
  }),
  documentBuildCost: whole(1, 1000, 5, {
    description:
      'requests of the rate limit a document counts as when the response cache does not hold it and it is built afresh (a cached answer or a 304 counts as one)',
  }),
  documentBuildsPerKey: whole(1, 1000, 1, {
    description:
      "documents one API key may have built at once; its other cache misses wait their turn (identical ones are built once), so that one key's misses do not slow the others",
  }),
  sgpDeadlineMs: whole(50, 600_000, 2000, {
    description:
      'a parlay waits this long for its simulation, then gets 503 with `Retry-After` (the simulation is kept for the retry)',
  }),
  feedStaleSeconds: whole(0, 86_400, 30, {
    zero: 'no bet stop on silence',
    description:
      'seconds of feed silence after which a LIVE event is stale: its open markets are suspended (`FEED_STALE`) until the next message about it; `0`: no bet stop on silence (a feed without keep-alives). The default is `0` while `DEMO_DATA` is on and `serve` runs without `--simulate`: nothing feeds the demo then',
  }),
  scoreChangeSuspendSeconds: text({
    default: '0',
    description:
      "seconds a LIVE event's open markets are suspended after a score (`SCORE_CHANGE`): one number for every competition and/or `key:seconds` pairs, e.g. `10`, `spr:5,gsoc:20`, `10,jaialai:0`; `0`: none. With `serve --simulate` the default is 5 for the team matches, and the seconds are the simulation's (at `--speed 60`, 5 s last a twelfth of a real second)",
  }),
  minDecimalOdds: decimalOdds(DEFAULT_PRICE_POLICY.minDecimalOdds, {
    description:
      'shortest decimal odds the engine publishes (generated markets, the demo, exactas on request, parlays, the bet builder); a likelier outcome is quoted at them with their probability. Above 1; fed prices are served as fed',
  }),
  maxDecimalOdds: decimalOdds(DEFAULT_PRICE_POLICY.maxDecimalOdds, {
    description: `longest decimal odds the engine publishes (above \`MIN_DECIMAL_ODDS\`, at most ${MAX_DECIMAL_ODDS}); a longer shot is quoted at them with their probability (\`100 / MAX_DECIMAL_ODDS\`), never 0`,
  }),
  priceLadder: oneOf(PRICE_LADDERS, DEFAULT_PRICE_POLICY.ladder, {
    description:
      "steps of the engine's decimal odds, always rounded down (towards the house): `decimal2` (two decimals, as B2B feeds publish), `exchange` (1.01-2 by 0.01, 2-3 by 0.02, 3-4 by 0.05, 4-6 by 0.1, 6-10 by 0.2, 10-20 by 0.5, 20-30 by 1, 30-50 by 2, 50-100 by 5, 100-1000 by 10), `off` (full precision)",
  }),
  oddsHistoryDays: whole(1, 36_500, 365, {
    description:
      "days of price history kept (1 to 36500): every node prunes older changes hourly, keeping each outcome's latest (its present price)",
  }),
  corsOrigins: Type.Optional(
    text({
      unset: 'no cross-origin browser access',
      description:
        'browser origins allowed to call the API: `*` for any, or a comma list (`https://a.example,http://localhost:5173`); unset: none',
    }),
  ),
  adminPort: port({
    unset: 'the admin API is on PORT',
    description: 'serve the admin API on this port only (on `ADMIN_HOST`), never on `PORT`',
  }),
  adminHost: text({ default: '127.0.0.1', description: 'interface of the admin and metrics listeners' }),
  metrics: switched(true, { description: '`on`: Prometheus metrics at `/metrics`; `off`: none' }),
  metricsPort: port({
    unset: '/metrics is on PORT',
    description: 'serve `/metrics` on this port only (on `ADMIN_HOST`), never on `PORT`',
  }),
  requestTimeoutSeconds: whole(1, 3600, 60, {
    description: 'a request (headers and body) must arrive within this time, or gets 408',
  }),
  keepAliveTimeoutSeconds: whole(1, 3600, 72, {
    description:
      "an idle keep-alive connection is closed after this time (keep it above your load balancer's idle timeout)",
  }),
});

/** The settings as the environment gives them, checked and with their defaults. */
export type Settings = Static<typeof SETTINGS>;
type SettingName = keyof Settings & string;

/** What the settings make at start: a few are read together or given their meaning here. */
interface Derived {
  /** Null when switched off (`DEMO_API_KEY=off`), or when unset without the demo data. */
  demoApiKey: string | null;
  bodyLimitBytes: number;
  sgpSimulationsPerKey: number;
  /** Seconds a LIVE event's open markets stay suspended after a score (SCORE_CHANGE), by competition key. */
  scoreChangeSeconds: Record<string, number>;
  /** The range and ladder every price the engine computes is published on; fed prices are served as fed. */
  pricePolicy: PricePolicy;
  /** Browser origins allowed to call the API (CORS): none, any (`*`), or a list. */
  corsOrigins: 'none' | '*' | string[];
  /** A listener of its own for the admin API; null: the admin API is on PORT. */
  adminPort: number | null;
  /** A listener of its own for /metrics; null: on PORT. */
  metricsPort: number | null;
}

export type Config = Omit<Settings, keyof Derived> & Derived;

/** A refused environment: every problem, each naming its variable. */
export class ConfigError extends CodedError {
  readonly problems: string[];

  constructor(problems: string[]) {
    super('CONFIG_INVALID', ERRORS.CONFIG_INVALID.message({ problems }), { problems });
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

type SettingSchema = TSchema & Annotations & Record<string, unknown>;

const schemaOf = (name: SettingName) => SETTINGS.properties[name] as unknown as SettingSchema;

/** A setting's environment variable: its name in SCREAMING_SNAKE_CASE (`bodyLimitMb`: BODY_LIMIT_MB). */
export const variableOf = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

export const SETTING_NAMES = Object.keys(SETTINGS.properties) as SettingName[];

/** Every variable with its README default and meaning, in the order they are declared. */
export const CONFIG_VARIABLES: ReadonlyArray<readonly [variable: string, fallback: string, meaning: string]> =
  SETTING_NAMES.map((name) => [variableOf(name), defaultOf(schemaOf(name)), schemaOf(name).description]);

function defaultOf(schema: SettingSchema): string {
  if (schema.defaultText !== undefined) return schema.defaultText;
  if (schema.default === undefined) return 'unset';
  return `\`${typeof schema.default === 'boolean' ? (schema.default ? 'on' : 'off') : schema.default}\``;
}

/** The README's table of variables, as `npm run config:readme` writes it between its markers. */
export function configTable(): string {
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...CONFIG_VARIABLES.map(([variable, fallback, meaning]) => `| \`${variable}\` | ${fallback} | ${meaning} |`),
  ].join('\n');
}

const SWITCH_WORDS: Record<string, boolean> = {
  on: true,
  true: true,
  1: true,
  yes: true,
  off: false,
  false: false,
  0: false,
  no: false,
};

/**
 * The environment's text as the schema's type: whole numbers and decimals written plainly (Value.Convert
 * would cut 1.5 to 1), on/off words, choices in any case. What does not read stays text, for the check to refuse.
 */
function read(schema: SettingSchema, raw: string): unknown {
  if (schema.type === 'integer') return /^\d+$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'number') return /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'boolean') return SWITCH_WORDS[raw.toLowerCase()] ?? raw;
  if (Array.isArray(schema.enum)) return raw.toLowerCase();
  return raw;
}

/** What a refused value must be, in the words of its schema. */
function must(schema: SettingSchema): string {
  if (schema.must) return schema.must;
  if (schema.type === 'integer') return `be a whole number from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return 'be on or off';
  if (Array.isArray(schema.enum)) return `be one of ${schema.enum.join(', ')}`;
  return 'be valid';
}

/** The environment read and checked against SETTINGS: the settings, and a message per refused variable. */
function readSettings(env: NodeJS.ProcessEnv): { settings: Settings; given: Set<SettingName>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const raws = new Map<SettingName, string>();
  for (const name of SETTING_NAMES) {
    const raw = env[variableOf(name)]?.trim();
    if (raw === undefined || raw === '') continue;
    raws.set(name, raw);
    values[name] = read(schemaOf(name), raw);
  }
  const settings = Value.Default(SETTINGS, values) as Settings;
  const refused = new Set<SettingName>();
  for (const error of Value.Errors(SETTINGS, settings)) refused.add(error.instancePath.slice(1) as SettingName);
  const problems = [...refused].map((name) => {
    const schema = schemaOf(name);
    const shown = schema.secret ? '' : `="${raws.get(name)}"`;
    return `${variableOf(name)}${shown} must ${must(schema)}`;
  });
  for (const name of refused) (settings as Record<string, unknown>)[name] = schemaOf(name).default;
  return { settings, given: new Set(raws.keys()), problems };
}

/**
 * `simulator`: the process runs the demo simulator, which feeds the demo's live events, at
 * `simulatorSpeed` simulated seconds per real second (1 when absent).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { simulator?: boolean; simulatorSpeed?: number } = {},
): Config {
  const { settings, given, problems } = readSettings(env);
  const { demoApiKey, adminPort, metricsPort } = settings;
  if (adminPort !== undefined && adminPort === settings.port)
    problems.push(`ADMIN_PORT=${adminPort} must differ from PORT (unset it to serve the admin API on PORT)`);
  if (metricsPort !== undefined && (metricsPort === settings.port || metricsPort === adminPort))
    problems.push(`METRICS_PORT=${metricsPort} must differ from PORT and ADMIN_PORT`);
  if (!(settings.maxDecimalOdds > settings.minDecimalOdds))
    problems.push(
      `MAX_DECIMAL_ODDS=${settings.maxDecimalOdds} must be above MIN_DECIMAL_ODDS=${settings.minDecimalOdds}: the engine publishes prices between them`,
    );
  // With the simulator, a goal or an end suspends a team match briefly, to show SCORE_CHANGE, for
  // seconds of the simulation's clock: at --speed 60, 5 s are a twelfth of a real second.
  const scoreChange = given.has('scoreChangeSuspendSeconds')
    ? settings.scoreChangeSuspendSeconds
    : options.simulator
      ? SIMULATOR_SCORE_CHANGE
      : undefined;
  const config: Config = {
    ...settings,
    // The well-known default key exists only alongside the demo data; an explicit key always applies.
    demoApiKey:
      demoApiKey?.toLowerCase() === 'off' ? null : (demoApiKey ?? (settings.demoData ? DEFAULT_DEMO_API_KEY : null)),
    bodyLimitBytes: settings.bodyLimitMb * 1024 * 1024,
    // One key never holds every draw thread: another key's first parlay starts at once.
    sgpSimulationsPerKey: settings.sgpSimulationsPerKey ?? Math.max(1, settings.sgpWorkers - 1),
    // The demo without its simulator has no feed behind it: silence would suspend every live demo event.
    feedStaleSeconds:
      !given.has('feedStaleSeconds') && settings.demoData && !options.simulator ? 0 : settings.feedStaleSeconds,
    scoreChangeSuspendSeconds: scoreChange ?? '0',
    scoreChangeSeconds: inSimulatedSeconds(
      parseScoreChangeSeconds(scoreChange, problems),
      options.simulator ? (options.simulatorSpeed ?? 1) : 1,
    ),
    pricePolicy: {
      minDecimalOdds: settings.minDecimalOdds,
      maxDecimalOdds: settings.maxDecimalOdds,
      ladder: settings.priceLadder,
    },
    corsOrigins: parseCorsOrigins(settings.corsOrigins, problems),
    adminPort: adminPort ?? null,
    metricsPort: metricsPort ?? null,
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
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

/** How `altsports config` shows a setting whose Config value is not what the environment says. */
const SHOWN: Partial<Record<SettingName, (config: Config) => unknown>> = {
  demoApiKey: (config) => config.demoApiKey ?? 'off',
  corsOrigins: (config) =>
    config.corsOrigins === 'none' ? undefined : config.corsOrigins === '*' ? '*' : config.corsOrigins.join(','),
  scoreChangeSuspendSeconds: (config) => describeScoreChangeSeconds(config.scoreChangeSeconds),
};

function describeScoreChangeSeconds(seconds: Record<string, number>): string {
  const set = Object.entries(seconds).filter(([, n]) => n > 0);
  return set.length === 0 ? '0 (no suspension after a score)' : set.map(([key, n]) => `${key}:${n}`).join(',');
}

function shown(schema: SettingSchema, value: unknown): string {
  if (value === undefined || value === null) return schema.unset ? `(unset: ${schema.unset})` : '(unset)';
  if (schema.secret === 'key') return `${String(value).slice(0, 4)}…(${String(value).length} chars)`;
  if (schema.secret === 'url') {
    const url = new URL(String(value));
    if (url.password) url.password = '*****';
    return url.toString();
  }
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value === 0 && schema.zero) return `0 (${schema.zero})`;
  return String(value);
}

/** The effective configuration with secrets masked, for `altsports config` and start-up logs. */
export function describeConfig(config: Config): Record<string, string> {
  return Object.fromEntries(
    SETTING_NAMES.map((name) => [
      variableOf(name),
      shown(schemaOf(name), SHOWN[name] ? SHOWN[name](config) : (config as unknown as Record<string, unknown>)[name]),
    ]),
  );
}
