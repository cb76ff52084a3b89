import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../schema.ts';

export function keysRepository(db: Kysely<Database>) {
  /**
   * Changes the one active key that an id or prefix names. Several matches change nothing and are all
   * returned, so that the caller can ask for the id.
   */
  async function updateOne(idOrPrefix: string, changes: Partial<ApiKeyRow>): Promise<ApiKeyRow[]> {
    const rows = await db
      .selectFrom('apiKeys')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('keyPrefix', '=', idOrPrefix)]))
      .where('revokedAt', 'is', null)
      .execute();
    if (rows.length !== 1) return rows;
    const row = rows[0] as ApiKeyRow;
    if (Object.keys(changes).length) await db.updateTable('apiKeys').set(changes).where('id', '=', row.id).execute();
    return [{ ...row, ...changes }];
  }

  return {
    async insert(row: ApiKeyRow): Promise<void> {
      await db.insertInto('apiKeys').values(row).execute();
    },

    async findActiveByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('apiKeys')
        .selectAll()
        .where('keyHash', '=', keyHash)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
    },

    async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('apiKeys').selectAll().where('keyHash', '=', keyHash).executeTakeFirst();
    },

    async list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('apiKeys').selectAll().orderBy('createdAt').orderBy('id').execute();
    },

    /** Revokes by id or key prefix; returns the rows revoked. */
    async revoke(idOrPrefix: string, at: string): Promise<ApiKeyRow[]> {
      return updateOne(idOrPrefix, { revokedAt: at });
    },

    /** Sets the rate limits given (null: the server's default) by id or key prefix; returns the rows changed. */
    async setLimits(
      idOrPrefix: string,
      limits: Partial<Pick<ApiKeyRow, 'ratePerMinute' | 'ratePerDay'>>,
    ): Promise<ApiKeyRow[]> {
      const changes = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
      return updateOne(idOrPrefix, changes);
    },
  };
}

export type KeysRepository = ReturnType<typeof keysRepository>;
