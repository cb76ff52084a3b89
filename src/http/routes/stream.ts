import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VerifiedKey } from '../../access/api-keys.ts';
import { streamTokenIssuer } from '../../access/stream-tokens.ts';
import { fail } from '../../domain/errors.ts';
import { followChanges, publishedData, streamFilter } from '../../read/change-stream.ts';
import { withPrices } from '../../read/prices.ts';
import { scopeOf } from '../plugins/auth.ts';
import {
  EventStream,
  StreamHeaders,
  StreamQuery,
  StreamTokenResponse,
  streamOperation,
  streamTokenOperation,
} from '../schemas/stream.ts';
import type { TypeBoxApp } from './typebox-app.ts';

export const streamRoutes: FastifyPluginAsyncTypebox<{ tokenSeconds: number }> = async (app, { tokenSeconds }) => {
  changeStream(app);
  streamTokens(app, tokenSeconds);
};

/** GET /stream: the changes as server-sent events, from the client's last event id when it resumes. */
function changeStream(app: TypeBoxApp): void {
  app.get(
    '/stream',
    {
      config: { access: 'public', streamToken: true },
      schema: {
        ...streamOperation.docs,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 200: EventStream, ...streamOperation.errors },
      },
    },
    async (request, reply) => {
      const { competition, eventId, kind, lastEventId, oddsFormat } = request.query;
      const header = request.headers['last-event-id'];
      if (header !== undefined && lastEventId !== undefined && Number(header) !== lastEventId) {
        throw fail('LAST_EVENT_ID_CONFLICT', { parameter: 'lastEventId' });
      }
      const filter = streamFilter({ competitions: competition, eventIds: eventId, kinds: kind }, scopeOf(request));
      const resumeAfter = header !== undefined ? Number(header) : (lastEventId ?? null);

      const stream = app.openEventStream(request, reply);
      // A resuming client keeps its own id until the replay (or a reset) moves it.
      stream.send({
        ...(resumeAfter === null ? { id: app.changeFeed.lastId } : {}),
        event: 'ready',
        data: { lastEventId: app.changeFeed.lastId },
      });
      try {
        const unsubscribe = await followChanges(app.store, app.changeFeed, resumeAfter, filter, {
          change: (change) =>
            stream.send({ id: change.id, event: change.kind, data: withPrices(publishedData(change), oddsFormat) }),
          gap: (afterId, position) =>
            stream.send({
              id: position,
              event: 'reset',
              data: {
                reason: 'resume',
                message:
                  afterId > position
                    ? `Change id ${afterId} is ahead of the change log (its last change id is ${position}): refetch what you show.`
                    : `Changes after ${afterId} are no longer in the change log: refetch what you show.`,
                publishedAt: new Date().toISOString(),
              },
            }),
        });
        stream.onClose(unsubscribe);
      } catch (error) {
        // The status line is sent: the client learns of the failure by the stream ending, and resumes.
        request.log.error({ err: error }, 'stream: replaying the change log failed');
        stream.end();
      }
    },
  );
}

/** POST /stream/tokens: a short-lived token for GET /stream?token=. */
function streamTokens(app: TypeBoxApp, tokenSeconds: number): void {
  const issueToken = streamTokenIssuer(app.store, tokenSeconds);
  app.post(
    '/stream/tokens',
    {
      config: { access: 'public' },
      schema: { ...streamTokenOperation.docs, response: { 201: StreamTokenResponse, ...streamTokenOperation.errors } },
      preValidation: async (request) => {
        const body = request.body as unknown;
        const empty =
          body === undefined ||
          body === null ||
          body === '' ||
          (typeof body === 'object' && Object.keys(body).length === 0);
        if (!empty) throw fail('INVALID_BODY', { reason: 'POST /stream/tokens takes no body' }, { in: 'body' });
      },
    },
    async (request, reply) => {
      reply.code(201);
      return issueToken(request.apiKey as VerifiedKey);
    },
  );
}
