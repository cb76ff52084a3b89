import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { FEED_COLLECTIONS, FeedDocument } from '../../ingest/feed-schema.ts';
import { ingestFeedBody } from '../../ingest/feed-slices.ts';
import { ingestFeed } from '../../ingest/ingest-feed.ts';
import { routeOf } from '../route-config.ts';
import { errorResponses } from '../schemas/common.ts';
import { discard, isStaged, stageBody } from '../staged-body.ts';

export const Counts = Type.Object({
  received: Type.Integer(),
  inserted: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  stale: Type.Integer({ description: 'older than the stored item, so ignored' }),
});

const IngestResult = Type.Object(
  {
    collections: Type.Object(Object.fromEntries(FEED_COLLECTIONS.map((c) => [c, Counts]))),
    changedEvents: Type.Integer({ description: 'events whose public document changed' }),
  },
  { $id: 'IngestResult', title: 'IngestResult' },
);

export const adminFeedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(FeedDocument);
  // The feed's body is staged rather than parsed (a large one to a file), then read in slices.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request, payload, done) => {
    stageBody(payload, routeOf(request).bodyLimit ?? app.initialConfig.bodyLimit ?? 0).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });
  // Removed once read, or when answered without reading it (a refused key, a parser's 400).
  app.addHook('onResponse', async (request) => {
    if (isStaged(request.body)) await discard(request.body);
  });
  app.post(
    '/feed',
    {
      config: { access: 'admin', ownInputChecks: true },
      schema: {
        tags: ['admin'],
        summary: 'Ingest a feed document',
        description:
          'Validates the whole batch, then upserts it in one transaction. A bad batch writes nothing and the 400 names each ' +
          'offending item and field. Sending the same batch twice changes nothing; an item older than the stored one is ignored. ' +
          'A document over 1 MiB is read a slice of items at a time rather than held whole in memory: as it arrives when ' +
          'its collections come in the order of this schema, updatedAt first; else from where it was kept while it arrived, ' +
          'one collection at a time in that order. Either way the answer is that of the whole document.',
        security: [{ AdminKeyAuth: [] }],
        body: Type.Ref('FeedDocument'),
        response: {
          200: IngestResult,
          ...errorResponses({
            400: 'invalid feed; nothing was written',
            401: 'missing or invalid admin key',
            413: 'body too large',
          }),
        },
      },
      // The ingest validator checks the body itself, so that its errors name items and fields alike
      // for this route and for `altsports import`.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const { body } = request;
      const summary = isStaged(body)
        ? await ingestFeedBody(request.server.store, body).finally(() => discard(body))
        : await ingestFeed(request.server.store, body);
      const { changedEventIds, changes, ...collections } = summary;
      request.log.info(
        { ingest: collections, changedEvents: changedEventIds.length, changes: changes.length },
        'feed ingested',
      );
      return { collections, changedEvents: changedEventIds.length };
    },
  );
};
