import { Type } from 'typebox';
import { FUTURE_TYPES } from '../../domain/enumerations.ts';
import { CompetitionKey, StringEnum } from '../../shapes/common.ts';

export const FutureOddsParams = Type.Object({
  sportType: CompetitionKey,
  tourId: Type.String({ maxLength: 128 }),
  futureType: StringEnum(FUTURE_TYPES),
});
