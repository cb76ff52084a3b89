import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getEventDocument, listEvents } from '../../read/events.ts';
import { Ref } from '../../shapes/common.ts';
import { Event, EventListItem, EventListQuery } from '../../shapes/events.ts';
import { eventListTags, eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      config: { access: 'public', cacheTags: eventListTags },
      schema: {
        tags: ['events'],
        summary: 'Fetch events',
        description:
          'Events that overlap the date range, filtered by competition and status, ordered by start date. ' +
          'With `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain.',
        querystring: EventListQuery,
        response: { 200: Type.Array(Ref(EventListItem)), ...errorResponses(PUBLIC_ERRORS) },
      },
    },
    async (request, reply) => {
      const page = await listEvents(request.server.store, request.query, scopeOf(request));
      if (page.nextCursor) {
        const url = new URL(request.url, 'http://localhost');
        url.searchParams.set('cursor', page.nextCursor);
        reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      return page.items;
    },
  );

  app.get(
    '/events/:eventId',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        tags: ['events'],
        summary: 'Fetch event',
        description: 'One event with its rounds, heats, round scores and teams.',
        params: EventIdParams,
        response: { 200: Ref(Event), ...errorResponses({ ...PUBLIC_ERRORS, 404: 'event not found' }) },
      },
    },
    async (request) => getEventDocument(request.server.store, request.params.eventId, scopeOf(request)),
  );
};
