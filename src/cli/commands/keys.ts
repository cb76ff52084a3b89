import type { ApiKeyInfo, KeyLimits } from '../../access/api-keys.ts';
import { loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { columns } from '../table.ts';
import { openMigratedStore } from './open-store.ts';

const USAGE = [
  'Usage:',
  '  altsports keys create --name NAME [--competitions wsl,sls] [--per-minute N] [--per-day N]',
  '                                                                issue a key (printed once)',
  '  altsports keys list [--json]                                  list keys (never the keys themselves)',
  '  altsports keys limits ID_OR_PREFIX [--per-minute N] [--per-day N]',
  "                                                                change a key's rate limits",
  '  altsports keys revoke ID_OR_PREFIX                            revoke a key',
  '',
  "ID_OR_PREFIX: a key's id, or the start of its id or of the key, as `keys list` shows them; one",
  'that names several keys changes none and lists them.',
  '',
  'Keys are stored hashed. A key limited to some competitions gets 403 outside them.',
  'Rate limits count requests per clock minute and per UTC day: N is a whole number, 0 or',
  '"unlimited" for no limit, "default" for the server\'s RATE_LIMIT_PER_MINUTE / RATE_LIMIT_PER_DAY',
  '(what a key gets when not told). A running server applies a change within 5 seconds.',
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
  },
  async run({ values, positionals }) {
    const [action, target] = positionals;
    if (
      !action ||
      !['create', 'list', 'limits', 'revoke'].includes(action) ||
      ((action === 'revoke' || action === 'limits') && !target)
    ) {
      console.error(USAGE);
      return 2;
    }
    const { createApiKey, listApiKeys, parseCompetitionList, revokeApiKey, setApiKeyLimits } = await import(
      '../../access/api-keys.ts'
    );
    const competitions = action === 'create' ? parseCompetitionList(values.competitions as string | undefined) : null;
    const limits = await limitOptions(values);
    if (action === 'limits' && Object.keys(limits).length === 0) {
      console.error('altsports keys limits: give --per-minute, --per-day or both\n');
      console.error(USAGE);
      return 2;
    }
    const store = await openMigratedStore(loadConfig());
    try {
      if (action === 'create') {
        const name = (values.name as string | undefined)?.trim();
        if (!name) {
          console.error('altsports keys create: --name is required\n');
          console.error(USAGE);
          return 2;
        }
        const { key, info } = await createApiKey(store, { name, competitions, ...limits });
        console.log(key);
        console.error(
          `Created key ${info.id} (${info.name}) for ${info.competitions ? info.competitions.join(', ') : 'every competition'}, ${showLimits(info)}. It is shown only once.`,
        );
      } else if (action === 'list') {
        const keys = await listApiKeys(store);
        if (values.json) {
          console.log(JSON.stringify(keys, null, 2));
        } else {
          const rows = keys.map((k) => [
            k.id,
            `${k.prefix}…`,
            k.revokedAt ? 'revoked' : 'active',
            k.name,
            k.competitions ? k.competitions.join(',') : '*',
            showLimits(k),
            k.createdAt,
          ]);
          const header = ['ID', 'KEY', 'STATUS', 'NAME', 'COMPETITIONS', 'LIMITS', 'CREATED'];
          for (const line of columns([header, ...rows])) console.log(line);
        }
      } else if (action === 'limits') {
        const info = await setApiKeyLimits(store, target as string, limits);
        console.log(`Key ${info.id} (${info.name}): ${showLimits(info)}`);
      } else {
        const info = await revokeApiKey(store, target as string);
        console.log(`Revoked key ${info.id} (${info.name})`);
      }
    } finally {
      await store.close();
    }
  },
};
