import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../schema.ts';

/**
 * API keys: created, found by hash, id or prefix, listed, revoked, given limits and new secrets.
 * Long only as a list of short methods is: every repository is one object of its aggregate's queries
 * (docs/decisions.md, "SQL in repositories").
 */
export function keysRepository(db: Kysely<Database>) {
  /**
   * Changes the one active key that an id, the start of an id, or the start of the key names. Several
   * matches change nothing and are all returned, so that the caller can name them. (Matched here, not
   * with LIKE: keys hold `_`, a LIKE wildcard; an operator's keys are few.)
   */
  async function updateOne(idOrPrefix: string, changes: Partial<ApiKeyRow>): Promise<ApiKeyRow[]> {
    const active = await db.selectFrom('apiKeys').selectAll().where('revokedAt', 'is', null).execute();
    const exact = active.filter((row) => row.id === idOrPrefix);
    const rows =
      exact.length > 0
        ? exact
        : active.filter((row) => row.id.startsWith(idOrPrefix) || row.keyPrefix.startsWith(idOrPrefix));
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

    async findActiveById(id: string): Promise<ApiKeyRow | undefined> {
      return db
        .selectFrom('apiKeys')
        .selectAll()
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
    },

    /** The active keys among `ids` (at most a few hundred: the keys of one node's open streams). */
    async findActiveByIds(ids: readonly string[]): Promise<ApiKeyRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('apiKeys').selectAll().where('id', 'in', ids).where('revokedAt', 'is', null).execute();
    },

    async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('apiKeys').selectAll().where('keyHash', '=', keyHash).executeTakeFirst();
    },

    /** The active key an id or prefix names; every match of an ambiguous prefix. */
    async find(idOrPrefix: string): Promise<ApiKeyRow[]> {
      return updateOne(idOrPrefix, {});
    },

    async list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('apiKeys').selectAll().orderBy('createdAt').orderBy('id').execute();
    },

    /** Revokes by id or prefix (of the id or of the key); returns the rows revoked, or every match of an ambiguous prefix. */
    async revoke(idOrPrefix: string, at: string): Promise<ApiKeyRow[]> {
      return updateOne(idOrPrefix, { revokedAt: at });
    },

    /** Sets the rate limits and plan given (null: the server's default, no plan) by id or prefix; returns the rows changed, or every match. */
    async setLimits(
      idOrPrefix: string,
      limits: Partial<Pick<ApiKeyRow, 'ratePerMinute' | 'ratePerDay' | 'planId'>>,
    ): Promise<ApiKeyRow[]> {
      const changes = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
      return updateOne(idOrPrefix, changes);
    },

    /** Gives the key a new secret (its hash and shown prefix) by id or prefix; returns the row changed, or every match. */
    async setSecret(idOrPrefix: string, keyHash: string, keyPrefix: string): Promise<ApiKeyRow[]> {
      return updateOne(idOrPrefix, { keyHash, keyPrefix });
    },
  };
}

export type KeysRepository = ReturnType<typeof keysRepository>;
