import type { Kysely } from 'kysely';
import type { Database, StreamTokenSecretRow } from '../schema.ts';

export function streamSecretsRepository(db: Kysely<Database>) {
  return {
    /** Every secret held: the current one (not retired) and those retired whose tokens may live on. */
    async list(): Promise<StreamTokenSecretRow[]> {
      return db.selectFrom('streamTokenSecrets').selectAll().orderBy('createdAt').execute();
    },

    /**
     * Retires the current secret, adds `next` as the current one and deletes the secrets retired before
     * `forgetBefore`, in one transaction.
     */
    async rotate(next: StreamTokenSecretRow, forgetBefore: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('streamTokenSecrets')
          .set({ retiredAt: next.createdAt })
          .where('retiredAt', 'is', null)
          .execute();
        await tx.deleteFrom('streamTokenSecrets').where('retiredAt', '<', forgetBefore).execute();
        await tx.insertInto('streamTokenSecrets').values(next).execute();
      });
    },
  };
}
