import { Type } from 'typebox';
import { FUTURE_TYPES } from '../../domain/enumerations.ts';
import { CompetitionKey, StringEnum } from '../../shapes/common.ts';
import { operation, PUBLIC_ERRORS } from './common.ts';

export const FutureOddsParams = Type.Object({
  sportType: CompetitionKey,
  tourId: Type.String({ maxLength: 128 }),
  futureType: StringEnum(FUTURE_TYPES),
});

/** Route 18: futures discovery. */
export const futuresOperation = operation({
  tags: ['futures'],
  summary: 'Fetch all futures',
  description: 'Futures discovery: every future market with its tour and season.',
  errors: PUBLIC_ERRORS,
  codes: [],
});

/** Route 19: a tour's futures of one type. */
export const futureOddsOperation = operation({
  tags: ['futures'],
  summary: 'Fetch future odds',
  description: "Odds of a tour's futures of one type, newest season first.",
  errors: { ...PUBLIC_ERRORS, 404: 'future or odds not found' },
  codes: ['FUTURES_NOT_FOUND'],
});
