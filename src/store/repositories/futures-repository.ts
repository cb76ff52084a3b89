import type { Kysely } from 'kysely';
import type { FutureType } from '../../domain/enumerations.ts';
import type { Database, FutureOddRow, FutureRow } from '../schema.ts';
import { anyOf, readById } from './chunked.ts';

export type FutureWithTour = FutureRow & { tourName: string; tourReferenceId: number };

function futuresWithTour(db: Kysely<Database>) {
  return db
    .selectFrom('futures')
    .innerJoin('tours', 'tours.id', 'futures.tourId')
    .selectAll('futures')
    .select(['tours.name as tourName', 'tours.referenceId as tourReferenceId']);
}

export function futuresRepository(db: Kysely<Database>) {
  return {
    async list(competitions?: readonly string[]): Promise<FutureWithTour[]> {
      let query = futuresWithTour(db);
      if (competitions) query = query.where('futures.competition', 'in', anyOf(competitions));
      return (await query
        .orderBy('futures.competition')
        .orderBy('futures.year', 'desc')
        .orderBy('futures.referenceId')
        .execute()) as FutureWithTour[];
    },

    /** Futures of one type for a tour, newest season first, each with its odds. */
    async findWithOdds(
      competition: string,
      tourId: string,
      type: FutureType,
    ): Promise<Array<{ future: FutureRow; odds: FutureOddRow[] }>> {
      const futures = await db
        .selectFrom('futures')
        .selectAll()
        .where('competition', '=', competition)
        .where('tourId', '=', tourId)
        .where('type', '=', type)
        .orderBy('year', 'desc')
        .orderBy('referenceId')
        .execute();
      if (futures.length === 0) return [];
      const odds = await db
        .selectFrom('futureOdds')
        .selectAll()
        .where(
          'futureId',
          'in',
          futures.map((f) => f.id),
        )
        .orderBy('referenceId')
        .execute();
      return futures.map((future) => ({ future, odds: odds.filter((o) => o.futureId === future.id) }));
    },

    /** The competition of each of these futures that the store holds, by id. */
    competitionsOf(futureIds: readonly string[]): Promise<Map<string, string>> {
      return readById(
        futureIds,
        (part) => db.selectFrom('futures').select(['id', 'competition']).where('id', 'in', part).execute(),
        (row) => row.competition,
      );
    },
  };
}

export type FuturesRepository = ReturnType<typeof futuresRepository>;
