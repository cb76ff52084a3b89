import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VerifiedKey } from '../../access/api-keys.ts';
import { streamTokenIssuer } from '../../access/stream-tokens.ts';
import { fail } from '../../domain/errors.ts';
import { followChanges, publishedData, streamFilter } from '../../read/change-stream.ts';
import { withPrices } from '../../read/prices.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { STREAM_DESCRIPTION, StreamHeaders, StreamQuery, StreamTokenResponse } from '../schemas/stream.ts';
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
        tags: ['stream'],
        summary: 'Stream changes (server-sent events)',
        description: STREAM_DESCRIPTION,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: { description: 'the event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          ...errorResponses(PUBLIC_ERRORS),
        },
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
      schema: {
        tags: ['stream'],
        summary: 'Issue a stream token',
        description:
          'A short-lived signed token for GET /stream?token=, so that EventSource works in a browser without the key in the page or the address bar. ' +
          "It is bound to the key and the key's competitions, lasts STREAM_TOKEN_SECONDS (600 by default), and stops working within 5 s of the key's revocation.",
        response: {
          201: StreamTokenResponse,
          ...errorResponses({ 400: 'a body was sent: the route takes none', 401: 'missing or invalid API key' }),
        },
      },
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
