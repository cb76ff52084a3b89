import { Type } from 'typebox';
import { CHANGE_KINDS } from '../../domain/changes.ts';
import { CompetitionKey, StringEnum } from './common.ts';

export const StreamQuery = Type.Object({
  competition: Type.Optional(Type.Array(CompetitionKey, { description: 'only changes of these competitions (repeated or a comma list)' })),
  eventId: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100, description: 'only changes of these events, prefixed or bare ids (repeated or a comma list)' })),
  kind: Type.Optional(Type.Array(StringEnum(CHANGE_KINDS), { description: 'only these kinds of change (repeated or a comma list); reset is always sent' })),
  lastEventId: Type.Optional(Type.Integer({ minimum: 0, description: 'resume after this change id, as the Last-Event-ID header does (for clients that cannot set headers)' })),
});

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(Type.String({ pattern: '^\\d{1,15}$', description: 'resume after this change id: the id of the last event received' })),
});

export const STREAM_DESCRIPTION = [
  'A server-sent events stream (text/event-stream) of the changes ingested, on every node, as they commit. Each event has',
  'an `id` (the change id; send it back as Last-Event-ID, which browsers do by themselves, to resume without a gap from',
  'the bounded change log), an `event` name and JSON `data`:',
  '',
  '- `ready`: sent first; `data.lastEventId` is where the stream starts.',
  '- `event`: an event\'s own facts changed. `{ eventId, competition, eventStatus, updatedAt }`.',
  '- `heatScore`: heats, rounds, entries, laps or results of an event changed. `{ eventId, competition, heatIds, roundIds, updatedAt }`.',
  '- `odds`: markets or prices of an event changed. `{ eventId, competition, marketIds, odds: [{ id, marketId, decimalOdds, status }], truncated?, updatedAt }`.',
  '- `settlement`: settlements of an event may have moved: heats completed, operator settlements, the event over. `{ eventId, competition, heatIds, oddIds, eventFinal, updatedAt }`.',
  '- `future`: futures of a competition changed. `{ competition, futureIds, updatedAt }`.',
  '- `reset`: too much changed to list (a bulk load, shared facts such as athletes), or the log no longer reaches back to',
  '  Last-Event-ID: refetch what you show. `{ reason, message }`. Sent whatever the filters.',
  '- `close`: the server is shutting down; reconnect (to another node) with Last-Event-ID.',
  '',
  'A comment line (`: heartbeat`) comes every STREAM_HEARTBEAT_SECONDS. The documents themselves are fetched from the',
  'other routes, cheaply with If-None-Match.',
].join('\n');
