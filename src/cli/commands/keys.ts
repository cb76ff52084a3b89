import { createApiKey, listApiKeys, parseCompetitionList, revokeApiKey } from '../../access/api-keys.ts';
import { loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';
import { openMigratedStore } from './open-store.ts';

const USAGE = [
  'Usage:',
  '  altsports keys create --name NAME [--competitions wsl,sls]   issue a key (printed once)',
  '  altsports keys list [--json]                                  list keys (never the keys themselves)',
  '  altsports keys revoke ID_OR_PREFIX                            revoke a key',
  '',
  'Keys are stored hashed. A key limited to some competitions gets 403 outside them.',
].join('\n');

export const keysCommand: Command = {
  usage: USAGE,
  options: { name: { type: 'string' }, competitions: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, positionals }) {
    const [action, target] = positionals;
    if (!action || !['create', 'list', 'revoke'].includes(action) || (action === 'revoke' && !target)) {
      console.error(USAGE);
      return 2;
    }
    const competitions = action === 'create' ? parseCompetitionList(values.competitions as string | undefined) : null;
    const store = await openMigratedStore(loadConfig());
    try {
      if (action === 'create') {
        const name = (values.name as string | undefined)?.trim();
        if (!name) {
          console.error('altsports keys create: --name is required\n');
          console.error(USAGE);
          return 2;
        }
        const { key, info } = await createApiKey(store, { name, competitions });
        console.log(key);
        console.error(`Created key ${info.id} (${info.name}) for ${info.competitions ? info.competitions.join(', ') : 'every competition'}. It is shown only once.`);
      } else if (action === 'list') {
        const keys = await listApiKeys(store);
        if (values.json) {
          console.log(JSON.stringify(keys, null, 2));
        } else {
          for (const k of keys) {
            console.log(`${k.id}  ${k.prefix}…  ${k.revokedAt ? 'revoked' : 'active '}  ${k.name}  ${k.competitions ? k.competitions.join(',') : '*'}  created ${k.createdAt}`);
          }
        }
      } else {
        const info = await revokeApiKey(store, target as string);
        console.log(`Revoked key ${info.id} (${info.name})`);
      }
    } finally {
      await store.close();
    }
  },
};
