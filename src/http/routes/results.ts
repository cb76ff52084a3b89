import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getHeatScores, getParticipants } from '../../read/results.ts';
import { Ref } from '../../shapes/common.ts';
import { HeatScoreRow, Participant } from '../../shapes/results.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { EventIdParams } from '../schemas/events.ts';
import { HeatParams, heatScoresOperation, participantsOperation } from '../schemas/results.ts';

export const resultsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events/:eventId/participants',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        ...participantsOperation.docs,
        params: EventIdParams,
        response: { 200: Type.Array(Ref(Participant)), ...participantsOperation.errors },
      },
    },
    async (request) => getParticipants(request.server.store, request.params.eventId, scopeOf(request)),
  );

  app.get(
    '/events/:eventId/heats/:heatId',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        ...heatScoresOperation.docs,
        params: HeatParams,
        response: { 200: Type.Array(Ref(HeatScoreRow)), ...heatScoresOperation.errors },
      },
    },
    async (request) =>
      getHeatScores(request.server.store, request.params.eventId, request.params.heatId, scopeOf(request)),
  );
};
