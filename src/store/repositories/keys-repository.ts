import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../schema.ts';

export function keysRepository(db: Kysely<Database>) {
  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insertInto('apiKeys').values(row).execute();
    },

    async findActiveByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('apiKeys').selectAll().where('keyHash', '=', keyHash).where('revokedAt', 'is', null).executeTakeFirst();
    },

    async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('apiKeys').selectAll().where('keyHash', '=', keyHash).executeTakeFirst();
    },

    async list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('apiKeys').selectAll().orderBy('createdAt').orderBy('id').execute();
    },

    /** Revokes by id or key prefix; returns the rows revoked. */
    async revoke(idOrPrefix: string, at: string): Promise<ApiKeyRow[]> {
      const rows = await db
        .selectFrom('apiKeys')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('keyPrefix', '=', idOrPrefix)]))
        .where('revokedAt', 'is', null)
        .execute();
      if (rows.length !== 1) return rows.length > 1 ? rows : [];
      await db.updateTable('apiKeys').set({ revokedAt: at }).where('id', '=', (rows[0] as ApiKeyRow).id).execute();
      return [{ ...(rows[0] as ApiKeyRow), revokedAt: at }];
    },
  };
}

export type KeysRepository = ReturnType<typeof keysRepository>;
