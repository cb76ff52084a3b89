import type { FutureType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { decimalToAmerican } from '../domain/odds-format.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { FutureListingItem, FutureOddsItem } from '../shapes/futures.ts';
import type { Store } from '../store/database.ts';
import { futuresRepository } from '../store/repositories/futures-repository.ts';
import { type AccessScope, assertCanRead } from './access-scope.ts';

/** Route 18: every future the caller may read (section 2.9). */
export async function listFutures(store: Store, scope: AccessScope): Promise<FutureListingItem[]> {
  const rows = await futuresRepository(store.db).list(scope ?? undefined);
  return rows.map((f) => ({
    id: formatPublicId(f.competition, f.id),
    referenceId: f.referenceId,
    type: f.type,
    tourId: f.tourId,
    numericTournamentId: f.tourReferenceId,
    tourName: f.tourName,
    startDate: f.startDate,
    endDate: f.endDate,
    year: f.year,
    gender: f.gender,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    isMarketOpen: f.isMarketOpen === 1,
    tourYearId: f.tourYearId,
  }));
}

/** Route 19: the odds of a tour's futures of one type, newest season first (section 2.10). */
export async function getFutureOdds(
  store: Store,
  sportType: string,
  tourId: string,
  futureType: FutureType,
  scope: AccessScope,
): Promise<FutureOddsItem[]> {
  assertCanRead(scope, sportType);
  const futures = await futuresRepository(store.db).findWithOdds(sportType, tourId, futureType);
  const items = futures.flatMap(({ future, odds }) =>
    odds.map((odd) => ({
      publicId: formatPublicId(future.competition, future.id),
      sportType: future.competition,
      futureType: future.type,
      id: odd.id,
      referenceId: odd.referenceId,
      name: odd.name,
      odds: (JSON.parse(odd.prices) as Array<{ outcomeName: string; decimalOdds: number }>).map((p) => ({
        outcomeName: p.outcomeName,
        americanOdds: decimalToAmerican(p.decimalOdds),
        decimalOdds: p.decimalOdds,
      })),
      updatedAt: odd.updatedAt,
    })),
  );
  if (items.length === 0) {
    throw fail('FUTURES_NOT_FOUND', { futureType, tourId, sportType }, { sportType, tourId, futureType });
  }
  return items;
}
