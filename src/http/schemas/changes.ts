import { Type } from 'typebox';
import { CHANGE_KINDS } from '../../domain/changes.ts';
import { StringEnum, Timestamp } from '../../shapes/common.ts';
import { operation, PUBLIC_ERRORS } from './common.ts';
import { StreamQuery } from './stream.ts';

export const ChangesQuery = Type.Object({
  after: Type.Integer({
    minimum: 0,
    description: 'the last change id the client has (a stream event id, or lastEventId of the previous page)',
  }),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 500, description: 'changes per page (1 to 1000)' }),
  ),
  competition: StreamQuery.properties.competition,
  eventId: StreamQuery.properties.eventId,
  kind: StreamQuery.properties.kind,
});

export const PublishedChange = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'the change id, as the stream sends it' }),
    kind: StringEnum(CHANGE_KINDS, { description: "the stream event's name" }),
    publishedAt: Timestamp,
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'the data the stream sends for this kind: EventChange, HeatScoreChange, OddsChange, SettlementChange, FutureChange or ResetNotice',
      },
    ),
  },
  { title: 'PublishedChange' },
);

export const ChangesPage = Type.Object(
  {
    changes: Type.Array(PublishedChange, { description: 'the changes after `after` that pass the filters, in order' }),
    lastEventId: Type.Integer({
      minimum: 0,
      description: 'the last change read: the next page is after it, and the stream resumes from it',
    }),
    oldestAvailable: Type.Integer({
      minimum: 0,
      description: 'the oldest change id the log holds (0 when empty): `after` must be at least one less',
    }),
    complete: Type.Boolean({ description: 'true once the log was read to its end: switch to the stream' }),
  },
  { title: 'ChangesPage' },
);

/** GET /changes: recovery without the stream. */
export const changesOperation = operation({
  tags: ['stream'],
  summary: 'Read the changes after a change id (recovery without the stream)',
  description: [
    'Recovery without the stream: the messages the push stream sent after the change id `after`, in order, with the',
    "stream's filters (competition, eventId, kind) and the key's competitions. Read page after page, each `after` the",
    "previous page's `lastEventId`, until `complete`; then open the stream with Last-Event-ID set to that `lastEventId`.",
    'The change log is bounded (CHANGE_LOG_SIZE): an `after` older than `oldestAvailable` - 1 is a 410, and the client',
    're-reads the documents it shows, then follows the changes after the `lastEventId` the error metadata gives.',
    'An `after` past the last change id (a client of another server, or a typo) is a 400 that says it is ahead of the',
    'log, with the `lastEventId` there is in its metadata.',
  ].join('\n'),
  errors: {
    ...PUBLIC_ERRORS,
    400: 'invalid parameter, or an `after` ahead of the change log (past its last change id)',
    410: 'the change log no longer reaches back to `after`',
  },
  codes: ['EVENT_ID_INVALID', 'CHANGE_ID_AHEAD', 'CHANGES_GONE'],
});
