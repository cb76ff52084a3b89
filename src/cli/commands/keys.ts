import type { ApiKeyInfo, KeyLimits, KeyPlan } from '../../access/api-keys.ts';
import { type Config, loadConfig } from '../../config.ts';
import type { Store } from '../../store/database.ts';
import type { Command } from '../main.ts';
import { columns } from '../table.ts';
import { openMigratedStore } from './open-store.ts';

const USAGE = [
  'Usage:',
  '  altsports keys create --name NAME [--competitions wsl,sls] [--per-minute N] [--per-day N] [--plan PLAN]',
  '                                                                issue a key (printed once)',
  '  altsports keys list [--json]                                  list keys (never the keys themselves)',
  '  altsports keys limits ID_OR_PREFIX [--per-minute N] [--per-day N] [--plan PLAN|none]',
  "                                                                change a key's rate limits or plan",
  '  altsports keys revoke ID_OR_PREFIX                            revoke a key',
  '  altsports keys rotate ID_OR_PREFIX                            give a key a new secret (printed once)',
  "  altsports keys usage ID_OR_PREFIX [--json]                    a key's requests today (by route) and this month",
  '  altsports keys rotate-stream-secret                           replace the secret stream tokens are signed with',
  '',
  "ID_OR_PREFIX: a key's id, or the start of its id or of the key, as `keys list` shows them; one",
  'that names several keys changes none and lists them.',
  '',
  'Keys are stored hashed. A key limited to some competitions gets 403 outside them.',
  'Rate limits count requests per clock minute and per UTC day: N is a whole number, 0 or',
  '"unlimited" for no limit, "default" for its plan\'s, else the server\'s RATE_LIMIT_PER_MINUTE /',
  'RATE_LIMIT_PER_DAY (what a key gets when not told). A running server applies a change within 5 seconds.',
  "PLAN: a plan's id or name (`altsports plans list`); its monthly quota, limits and competitions apply",
  'where the key sets none of its own.',
  '',
  'Usage is kept in the store by every server (written every USAGE_FLUSH_SECONDS): it covers every',
  "node and outlives restarts. The minute's count is in Redis (REDIS_URL) or in each server process.",
  '',
  'Stream tokens (POST /api/v1/public/stream/tokens) are signed with a random secret kept in the store,',
  'shared by every server. rotate-stream-secret makes a new one sign new tokens within 5 seconds; tokens',
  "signed with the previous one work until they expire (STREAM_TOKEN_SECONDS), the previous secret's",
  'own retirement earlier than that deleted.',
].join('\n');

/** The limits given on the command line; an absent option leaves that limit as it is. */
async function limitOptions(values: Record<string, string | boolean | undefined>): Promise<KeyLimits> {
  const { parseRateSetting } = await import('../../access/rate-limit.ts');
  const perMinute = values['per-minute'] as string | undefined;
  const perDay = values['per-day'] as string | undefined;
  return {
    ...(perMinute !== undefined ? { ratePerMinute: parseRateSetting(perMinute, '--per-minute') } : {}),
    ...(perDay !== undefined ? { ratePerDay: parseRateSetting(perDay, '--per-day') } : {}),
  };
}

const showLimit = (value: number | null, unit: string) =>
  `${value === null ? 'default' : value === 0 ? 'unlimited' : value}/${unit}`;
const showLimits = (k: ApiKeyInfo) => `${showLimit(k.ratePerMinute, 'min')} ${showLimit(k.ratePerDay, 'day')}`;

export const keysCommand: Command = {
  usage: USAGE,
  options: {
    name: { type: 'string' },
    competitions: { type: 'string' },
    json: { type: 'boolean' },
    'per-minute': { type: 'string' },
    'per-day': { type: 'string' },
    plan: { type: 'string' },
  },
  async run({ values, positionals }) {
    const [action, target] = positionals;
    if (
      !action ||
      !['create', 'list', 'limits', 'revoke', 'rotate', 'usage', 'rotate-stream-secret'].includes(action) ||
      (['revoke', 'limits', 'usage', 'rotate'].includes(action) && !target)
    ) {
      console.error(USAGE);
      return 2;
    }
    const { parseCompetitionList, revokeApiKey, rotateApiKey, setApiKeyLimits } = await import(
      '../../access/api-keys.ts'
    );
    const competitions = action === 'create' ? parseCompetitionList(values.competitions as string | undefined) : null;
    const plan = values.plan as string | undefined;
    const limits = {
      ...(await limitOptions(values)),
      ...(plan === undefined ? {} : { plan: plan === 'none' ? null : plan }),
    };
    if (action === 'limits' && Object.keys(limits).length === 0) {
      console.error('altsports keys limits: give --per-minute, --per-day, --plan or several\n');
      console.error(USAGE);
      return 2;
    }
    const config = loadConfig();
    const store = await openMigratedStore(config);
    try {
      if (action === 'usage') return await printUsage(store, config, target as string, values.json === true);
      if (action === 'rotate-stream-secret') return await rotateSecret(store, config);
      if (action === 'create') return await createKey(store, values, { competitions, ...limits });
      if (action === 'list') await listKeys(store, values.json === true);
      else if (action === 'limits') {
        const info = await setApiKeyLimits(store, target as string, limits);
        console.log(`Key ${info.id} (${info.name}): ${showLimits(info)}${info.planId ? `, plan ${info.planId}` : ''}`);
      } else if (action === 'rotate') {
        const { key, info } = await rotateApiKey(store, target as string);
        console.log(key);
        console.error(
          `Key ${info.id} (${info.name}) has a new secret, shown only once; the old one stops working within 5 seconds.`,
        );
      } else {
        const info = await revokeApiKey(store, target as string);
        console.log(`Revoked key ${info.id} (${info.name})`);
      }
    } finally {
      await store.close();
    }
  },
};

/** `keys create`: the key on stdout (its only showing), what it is on stderr. */
async function createKey(
  store: Store,
  values: Record<string, string | boolean | undefined>,
  settings: { competitions: string[] | null } & KeyLimits & KeyPlan,
): Promise<number | undefined> {
  const name = (values.name as string | undefined)?.trim();
  if (!name) {
    console.error('altsports keys create: --name is required\n');
    console.error(USAGE);
    return 2;
  }
  const { createApiKey } = await import('../../access/api-keys.ts');
  const { key, info } = await createApiKey(store, { name, ...settings });
  console.log(key);
  console.error(
    `Created key ${info.id} (${info.name}) for ${info.competitions ? info.competitions.join(', ') : 'every competition'}, ${showLimits(info)}${info.planId ? `, on plan ${info.planId}` : ''}. It is shown only once.`,
  );
  return undefined;
}

/** `keys list`: every key with its requests today, as a table or as JSON. */
async function listKeys(store: Store, json: boolean): Promise<void> {
  const { listApiKeys } = await import('../../access/api-keys.ts');
  const keys = await listApiKeys(store);
  const { storedTotals } = await import('../../access/usage-ledger.ts');
  const today = (
    await storedTotals(
      store,
      keys.map((k) => k.id),
    )
  ).map((t) => t.today);
  if (json) {
    console.log(
      JSON.stringify(
        keys.map((k, i) => ({ ...k, today: today[i] })),
        null,
        2,
      ),
    );
    return;
  }
  const rows = keys.map((k) => [
    k.id,
    `${k.prefix}…`,
    k.revokedAt ? 'revoked' : 'active',
    k.name,
    k.competitions ? k.competitions.join(',') : '*',
    showLimits(k),
    k.planId ?? '-',
    String(today[keys.indexOf(k)]),
    k.createdAt,
  ]);
  const header = ['ID', 'KEY', 'STATUS', 'NAME', 'COMPETITIONS', 'LIMITS', 'PLAN', 'TODAY', 'CREATED'];
  for (const line of columns([header, ...rows])) console.log(line);
}

/** `keys rotate-stream-secret`. */
async function rotateSecret(store: Store, config: Config): Promise<number> {
  const { rotateStreamSecret } = await import('../../access/stream-tokens.ts');
  const secret = await rotateStreamSecret(store, { tokenSeconds: config.streamTokenSeconds });
  console.log(
    `Stream tokens are now signed with secret ${secret.id}; tokens of the previous one work until they expire (${config.streamTokenSeconds} s at most).`,
  );
  return 0;
}

/** The minute's counts, when the servers keep them in Redis; null without REDIS_URL (each server counts its own). */
async function sharedLimiter(config: Config) {
  if (!config.redisUrl) return null;
  const { redisRateLimiter } = await import('../../access/redis-rate-limit.ts');
  return redisRateLimiter(config.redisUrl);
}

/**
 * `keys usage`: what GET /usage answers the key, from the store (today by route, this month); this
 * minute's count from Redis, null without it (each server counts its own minute).
 */
async function printUsage(store: Store, config: Config, target: string, json: boolean): Promise<number> {
  const { findApiKey, verifiedKeyById } = await import('../../access/api-keys.ts');
  const { keyUsage, utcDay } = await import('../../access/rate-limit.ts');
  const { storedTotals, usageBetween } = await import('../../access/usage-ledger.ts');
  const key = await verifiedKeyById(store, (await findApiKey(store, target)).id);
  const now = Date.now();
  const today = utcDay(now);
  const [[totals], rows] = await Promise.all([
    storedTotals(store, [key.id], now),
    usageBetween(store, { from: today, to: today, keyId: key.id }),
  ]);
  const limiter = await sharedLimiter(config);
  let minute: number | null = null;
  try {
    if (limiter) minute = await limiter.minuteUsed(key.id, now);
  } finally {
    await limiter?.close();
  }
  const limits = {
    perMinute: key.ratePerMinute ?? config.rateLimitPerMinute,
    perDay: key.ratePerDay ?? config.rateLimitPerDay,
    monthlyQuota: key.monthlyQuota,
  };
  const byRoute = Object.fromEntries(rows.map((row) => [row.route, row.requests]));
  const usage = keyUsage(limits, { minute, byRoute, month: totals?.month ?? 0 }, now);
  const document = {
    key: { id: key.id, name: key.name },
    minute: usage.minute,
    day: usage.day,
    month: usage.month,
    today: { byRoute },
  };
  if (json) {
    console.log(JSON.stringify(document, null, 2));
    return 0;
  }
  const window = (name: string, w: typeof usage.day | null) =>
    w === null
      ? `${name}: counted by each server (no REDIS_URL)`
      : `${name}: ${w.used} used of ${w.limit ?? 'unlimited'}${w.remaining === null ? '' : `, ${w.remaining} left`}, resets in ${w.resetSeconds} s`;
  console.log(`Key ${key.id} (${key.name})`);
  console.log(window('this minute', usage.minute));
  console.log(window('today (UTC)', usage.day));
  console.log(window('this month (UTC)', usage.month));
  const routes = Object.entries(byRoute).sort(([, a], [, b]) => b - a);
  for (const line of columns([['ROUTE', 'TODAY'], ...routes.map(([route, n]) => [route, String(n)])]))
    console.log(line);
  return 0;
}
