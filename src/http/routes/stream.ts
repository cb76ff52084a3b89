import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../domain/errors.ts';
import { followChanges, publishedData, streamFilter } from '../../read/change-stream.ts';
import { scopeOf } from '../plugins/auth.ts';
import { normaliseArrayParam } from '../query-params.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { STREAM_DESCRIPTION, StreamHeaders, StreamQuery } from '../schemas/stream.ts';

export const streamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stream',
    {
      config: { access: 'public' },
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
      preValidation: async (request) => {
        let query = request.query as Record<string, unknown>;
        for (const name of ['competition', 'eventId', 'kind']) query = normaliseArrayParam(query, name);
        request.query = query as typeof request.query;
      },
    },
    async (request, reply) => {
      const { competition, eventId, kind, lastEventId } = request.query;
      const header = request.headers['last-event-id'];
      if (header !== undefined && lastEventId !== undefined && Number(header) !== lastEventId) {
        throw badRequest('Last-Event-ID and lastEventId disagree; send one of them', { parameter: 'lastEventId' });
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
          change: (change) => stream.send({ id: change.id, event: change.kind, data: publishedData(change) }),
          gap: (afterId, position) =>
            stream.send({
              id: position,
              event: 'reset',
              data: {
                reason: 'resume',
                message: `Changes after ${afterId} are no longer in the change log: refetch what you show.`,
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
};
