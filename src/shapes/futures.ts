import { type Static, Type } from 'typebox';
import { FUTURE_TYPES, GENDERS } from '../domain/enumerations.ts';
import { CompetitionKey, Nullable, Price, StringEnum, Timestamp } from './common.ts';

/** Routes 18 and 19: the futures and their odds (sections 2.9 and 2.10). */
export const FutureListingItem = Type.Object(
  {
    id: Type.String({ description: '<sport_key>:<uuid>' }),
    referenceId: Type.Integer(),
    type: StringEnum(FUTURE_TYPES),
    tourId: Type.String(),
    numericTournamentId: Type.Integer(),
    tourName: Type.String(),
    startDate: Timestamp,
    endDate: Timestamp,
    year: Type.Integer(),
    gender: Nullable(StringEnum(GENDERS)),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    isMarketOpen: Type.Boolean(),
    tourYearId: Type.String(),
  },
  { $id: 'FutureListingItem', title: 'FutureListingItem' },
);
export type FutureListingItem = Static<typeof FutureListingItem>;

export const FutureOddsItem = Type.Object(
  {
    publicId: Type.String({ description: 'the future: <sport_key>:<uuid>' }),
    sportType: CompetitionKey,
    futureType: StringEnum(FUTURE_TYPES),
    id: Type.String(),
    referenceId: Type.Integer(),
    name: Type.String(),
    odds: Type.Array(
      Type.Object({
        outcomeName: Type.String(),
        americanOdds: Type.Number(),
        decimalOdds: Type.Number(),
        price: Price,
      }),
    ),
    updatedAt: Timestamp,
  },
  { $id: 'FutureOddsItem', title: 'FutureOddsItem' },
);
export type FutureOddsItem = Static<typeof FutureOddsItem>;
