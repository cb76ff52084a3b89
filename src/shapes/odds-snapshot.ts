import { type Static, Type } from 'typebox';
import { ODD_TYPES, OUTCOME_STATUSES } from '../domain/enumerations.ts';
import { CompetitionKey, OddsFormatParam, Ref, StringEnum } from './common.ts';
import {
  AthleteOdd,
  DreamTeamOdd,
  ExactaOdd,
  HeadToHeadOdd,
  HeatOdd,
  OverUnderOdd,
  PropBetOdd,
  TeamMarketOdd,
} from './odds.ts';

/** GET /odds: every matching market of every event, with route 6's items, in one request. */

export const OddsSnapshotQuery = Type.Object({
  competition: Type.Optional(
    Type.Array(CompetitionKey, { description: 'only events of these competitions (one, repeated or a comma list)' }),
  ),
  eventId: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), {
      maxItems: 100,
      description: 'only these events: <sport_key>:<uuid> (a bare uuid is accepted too); one, repeated or a comma list',
    }),
  ),
  oddType: Type.Optional(Type.Array(StringEnum(ODD_TYPES), { description: 'only markets of these odd types' })),
  status: Type.Optional(
    Type.Array(StringEnum(OUTCOME_STATUSES), {
      description: 'only outcomes in these statuses (a matchup by its betStatus); markets left empty are left out',
    }),
  ),
  oddsFormat: Type.Optional(OddsFormatParam),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'markets per page; without it the whole list is returned' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'opaque position from the previous page (see the Link header)' }),
  ),
});
export type OddsSnapshotQuery = Static<typeof OddsSnapshotQuery>;

export const SnapshotMarket = Type.Object(
  {
    eventId: Type.String({ description: '<sport_key>:<uuid>' }),
    oddType: StringEnum(ODD_TYPES),
    marketId: Type.String(),
    outcomes: Type.Array(
      // The serializer writes an item as the first shape it validates against: the shapes with
      // the most required fields first, AthleteOdd (whose fields others share) last.
      Type.Union([
        Ref(HeadToHeadOdd),
        Ref(HeatOdd),
        Ref(ExactaOdd),
        Ref(OverUnderOdd),
        Ref(PropBetOdd),
        Ref(DreamTeamOdd),
        Ref(TeamMarketOdd),
        Ref(AthleteOdd),
      ]),
      {
        description:
          "the market's items as route 6 publishes them for its odd type (a headToHead market is one matchup)",
      },
    ),
  },
  { $id: 'SnapshotMarket', title: 'SnapshotMarket' },
);
export type SnapshotMarket = Static<typeof SnapshotMarket>;
