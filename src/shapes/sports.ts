import { type Static, Type } from 'typebox';
import { RESULTS_FORMATS } from '../domain/competitions.ts';
import { ODD_TYPES } from '../domain/enumerations.ts';
import { CompetitionKey, StringEnum } from './common.ts';

/** Route 1's items: the competition catalogue. */
export const SportListingItem = Type.Object(
  {
    key: CompetitionKey,
    referenceId: Type.Integer(),
    name: Type.String(),
    supportedMarkets: Type.Array(StringEnum(ODD_TYPES)),
    sportKey: Type.String({ description: 'sport category published on score rows' }),
    sportName: Type.String(),
    resultsFormat: StringEnum(Object.keys(RESULTS_FORMATS) as (keyof typeof RESULTS_FORMATS)[]),
  },
  { $id: 'SportListingItem', title: 'SportListingItem' },
);
export type SportListingItem = Static<typeof SportListingItem>;
