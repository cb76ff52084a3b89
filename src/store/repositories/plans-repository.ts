import type { Kysely } from 'kysely';
import type { Database, PlanRow } from '../schema.ts';

export function plansRepository(db: Kysely<Database>) {
  return {
    async insert(row: PlanRow): Promise<void> {
      await db.insertInto('plans').values(row).execute();
    },

    async list(): Promise<PlanRow[]> {
      return db.selectFrom('plans').selectAll().orderBy('createdAt').orderBy('id').execute();
    },

    /** The plan with this id or this name. */
    async find(idOrName: string): Promise<PlanRow | undefined> {
      return db
        .selectFrom('plans')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
        .executeTakeFirst();
    },

    async findByIds(ids: readonly string[]): Promise<PlanRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('plans').selectAll().where('id', 'in', ids).execute();
    },

    async update(id: string, changes: Partial<Omit<PlanRow, 'id' | 'createdAt'>>): Promise<void> {
      if (Object.keys(changes).length === 0) return;
      await db.updateTable('plans').set(changes).where('id', '=', id).execute();
    },
  };
}

export type PlansRepository = ReturnType<typeof plansRepository>;
