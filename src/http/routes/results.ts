import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getHeatScores, getParticipants } from '../../read/results.ts';
import { Ref } from '../../shapes/common.ts';
import { HeatScoreRow, Participant } from '../../shapes/results.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';
import { HeatParams } from '../schemas/results.ts';

export const resultsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events/:eventId/participants',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        tags: ['results'],
        summary: 'Fetch event participants',
        description:
          "The athletes entered in the event, by seed (unseeded last). 400 for competitions whose entrants are teams: read the event's teams instead.",
        params: EventIdParams,
        response: {
          200: Type.Array(Ref(Participant)),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'participants not available for this event',
            404: 'event not found',
          }),
        },
      },
    },
    async (request) => getParticipants(request.server.store, request.params.eventId, scopeOf(request)),
  );

  app.get(
    '/events/:eventId/heats/:heatId',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        tags: ['results'],
        summary: 'Fetch heat scores',
        description:
          "The heat's score rows, ordered by rank then seed (nulls last). Ranks, win methods, lap statistics, the skateboarding round score and updatedAt are derived from the stored facts as section 2.5 of the specification says.",
        params: HeatParams,
        response: {
          200: Type.Array(Ref(HeatScoreRow)),
          ...errorResponses({ ...PUBLIC_ERRORS, 404: 'event or heat not found, or the heat is not in that event' }),
        },
      },
    },
    async (request) =>
      getHeatScores(request.server.store, request.params.eventId, request.params.heatId, scopeOf(request)),
  );
};
