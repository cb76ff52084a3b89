import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getEventOdds } from '../../read/odds.ts';
import { scopeOf } from '../plugins/auth.ts';
import { PUBLIC_ERRORS, errorResponses } from '../schemas/common.ts';
import { EventOddsParams, EventOddsQuery } from '../schemas/odds.ts';

export const oddsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events/:eventId/:oddType',
    {
      config: { access: 'public' },
      schema: {
        tags: ['odds'],
        summary: 'Fetch event odds',
        description:
          "One odd type's outcomes for the event, each priced as decimal odds, American odds and a probability in percent, with its status and its settlement (derived from the results once its heat or event is decided). " +
          'An odd type the competition does not offer is a 404. The literal segments gsoc, mltt, nll, 3ice, jaialai, heats and participants select other routes.',
        params: EventOddsParams,
        querystring: EventOddsQuery,
        response: { 200: Type.Ref('EventOdds'), ...errorResponses({ ...PUBLIC_ERRORS, 404: 'event not found, or odds of this type not offered for its competition' }) },
      },
    },
    async (request) => getEventOdds(request.server.store, request.params.eventId, request.params.oddType, request.query, scopeOf(request)),
  );
};
