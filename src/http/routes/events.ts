import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getEventDocument, listEvents } from '../../read/events.ts';
import { Ref } from '../../shapes/common.ts';
import { Event, EventListItem, EventListQuery } from '../../shapes/events.ts';
import { eventListTags, eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { EventIdParams, eventListOperation, eventOperation } from '../schemas/events.ts';

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      config: { access: 'public', cacheTags: eventListTags },
      schema: {
        ...eventListOperation.docs,
        querystring: EventListQuery,
        response: { 200: Type.Array(Ref(EventListItem)), ...eventListOperation.errors },
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
        ...eventOperation.docs,
        params: EventIdParams,
        response: { 200: Ref(Event), ...eventOperation.errors },
      },
    },
    async (request) => getEventDocument(request.server.store, request.params.eventId, scopeOf(request)),
  );
};
