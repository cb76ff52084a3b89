import { type Static, Type } from 'typebox';
import { DATE_PARAM_PATTERN } from '../domain/dates.ts';
import { EVENT_STATUSES, SORT_ORDERS } from '../domain/enumerations.ts';
import { CompetitionKey, Nullable, Ref, StringEnum, Timestamp } from './common.ts';

/** The documents of routes 2 and 3 (the event list and the event), and the query of the list. */

const DateParam = (description: string) =>
  Type.String({
    pattern: DATE_PARAM_PATTERN,
    description: `${description}: a date (YYYY-MM-DD) or an ISO 8601 date-time`,
  });

export const EventListQuery = Type.Object({
  startDate: Type.Optional(DateParam('events that end on or after this')),
  endDate: Type.Optional(DateParam('events that start on or before this')),
  competition: Type.Optional(
    Type.Array(CompetitionKey, {
      description: 'only events of these competitions: one key, repeated, or a comma list (as every list filter)',
    }),
  ),
  sportType: Type.Optional(
    Type.Array(CompetitionKey, { deprecated: true, description: 'deprecated: use competition (same values)' }),
  ),
  sortOrder: Type.Optional(StringEnum(SORT_ORDERS, { description: 'order by start date; ASC by default' })),
  eventStatus: Type.Optional(
    Type.Array(StringEnum(EVENT_STATUSES), {
      description:
        'only events in these statuses; send it repeated (eventStatus=LIVE&eventStatus=NEXT), as a comma list, as eventStatus[]=, or indexed eventStatus[0]=',
    }),
  ),
  updatedSince: Type.Optional(
    DateParam(
      "only events any of whose public documents (the event, its heats' scores, its odds) changed after this, " +
        'that is whose `lastChangedAt` is later',
    ),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'page size; without it the whole list is returned' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'opaque position from the previous page (see the Link header)' }),
  ),
});
export type EventListQuery = Static<typeof EventListQuery>;

export const EventListItem = Type.Object(
  {
    id: Type.String({ description: '<sport_key>:<uuid>' }),
    numericEventId: Type.Integer(),
    name: Type.String(),
    competition: CompetitionKey,
    tourName: Type.String(),
    startDate: Timestamp,
    endDate: Timestamp,
    year: Type.Integer(),
    eventNumber: Type.Integer(),
    eventStatus: StringEnum(EVENT_STATUSES),
    eventLocation: Nullable(Type.String()),
    eventLocationGroup: Nullable(Type.String()),
    updatedAt: Type.String({
      format: 'date-time',
      description: "the event document's latest change (the specification's field)",
    }),
    lastChangedAt: Type.String({
      format: 'date-time',
      description:
        "the latest change to any of the public documents of the event: the event, its heats' score rows, " +
        'its markets and odds (never before `updatedAt`); what `updatedSince` filters on',
    }),
    cardId: Type.Optional(
      Type.String({ description: 'Jai Alai matches only: the card (night) id that GET /events/jaialai/{id} takes' }),
    ),
  },
  { $id: 'EventListItem', title: 'EventListItem' },
);
export type EventListItem = Static<typeof EventListItem>;

export const Heat = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.Integer(),
    heatName: Type.String(),
    heatNo: Type.Integer(),
    heatStatus: StringEnum(EVENT_STATUSES),
    startDate: Nullable(Timestamp),
    endDate: Nullable(Timestamp),
    providerId: Nullable(Type.String()),
    scoresUrl: Type.String({ description: "path of this heat's scores (GET /events/{eventId}/heats/{heatId})" }),
  },
  { $id: 'Heat', title: 'Heat' },
);

export const RoundScore = Type.Object(
  { id: Type.String(), referenceId: Type.Integer(), teamId: Type.String(), goals: Type.Integer() },
  { $id: 'RoundTeamScore', title: 'RoundTeamScore' },
);

export const Round = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.Integer(),
    roundName: Type.String(),
    roundNo: Type.Integer(),
    roundStatus: StringEnum(EVENT_STATUSES),
    startDate: Nullable(Timestamp),
    endDate: Nullable(Timestamp),
    providerId: Nullable(Type.String()),
    heats: Type.Array(Ref(Heat)),
    scores: Type.Array(Ref(RoundScore)),
  },
  { $id: 'Round', title: 'Round' },
);

export const EventTeam = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.Integer(),
    name: Type.String(),
    shortName: Nullable(Type.String()),
    logo: Nullable(Type.String({ format: 'uri' })),
    isHomeTeam: Type.Boolean(),
  },
  { $id: 'EventTeam', title: 'EventTeam' },
);

export const Event = Type.Object(
  {
    sportId: Type.String({ description: 'competition key' }),
    sportType: Type.String({
      description: "competition key again, under the name the provider SDK reads (its settlement report's league)",
    }),
    numericSportId: Type.Integer(),
    tourId: Type.String(),
    numericTournamentId: Type.Integer(),
    id: Type.String({ description: '<sport_key>:<uuid>' }),
    numericEventId: Type.Integer(),
    tourName: Type.String(),
    name: Type.String(),
    startDate: Timestamp,
    endDate: Timestamp,
    year: Type.Integer(),
    eventNumber: Type.Integer(),
    eventStatus: StringEnum(EVENT_STATUSES),
    eventLocation: Nullable(Type.String()),
    eventLocationNumericId: Nullable(Type.Integer()),
    eventLocationGroup: Nullable(Type.String()),
    providerId: Nullable(Type.String()),
    rounds: Type.Array(Ref(Round)),
    teams: Type.Array(Ref(EventTeam)),
    updatedAt: Timestamp,
    seasonType: Nullable(Type.String()),
    participantsUrl: Nullable(
      Type.String({
        description:
          "path of the event's participants (GET /events/{eventId}/participants); null where the competition publishes teams",
      }),
    ),
    cardId: Type.Optional(
      Type.String({ description: 'Jai Alai matches only: the card (night) id that GET /events/jaialai/{id} takes' }),
    ),
  },
  { $id: 'Event', title: 'Event' },
);
export type Event = Static<typeof Event>;

/** Schemas referenced by $ref, registered once with Fastify (and so named in the OpenAPI document). */
export const EVENT_SHARED_SCHEMAS = [Heat, RoundScore, Round, EventTeam, EventListItem, Event];
