import { Type } from 'typebox';
import { FUTURE_TYPES, GENDERS } from '../../domain/enumerations.ts';
import { CompetitionKey, Nullable, StringEnum, Timestamp } from './common.ts';

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

export const FutureOddsParams = Type.Object({
  sportType: CompetitionKey,
  tourId: Type.String({ maxLength: 128 }),
  futureType: StringEnum(FUTURE_TYPES),
});

export const FutureOddsItem = Type.Object(
  {
    publicId: Type.String({ description: 'the future: <sport_key>:<uuid>' }),
    sportType: CompetitionKey,
    futureType: StringEnum(FUTURE_TYPES),
    id: Type.String(),
    referenceId: Type.Integer(),
    name: Type.String(),
    odds: Type.Array(
      Type.Object({ outcomeName: Type.String(), americanOdds: Type.Number(), decimalOdds: Type.Number() }),
    ),
    updatedAt: Timestamp,
  },
  { $id: 'FutureOddsItem', title: 'FutureOddsItem' },
);
