import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VerifiedKey } from '../../access/api-keys.ts';
import { Ref } from '../../shapes/common.ts';
import { KeyUsageResponse } from '../../shapes/usage.ts';
import { errorResponses } from '../schemas/common.ts';

export const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/usage',
    {
      config: { access: 'public', uncounted: true },
      schema: {
        tags: ['usage'],
        summary: "Fetch the key's usage",
        description:
          "The calling key's requests this clock minute and this UTC day against its limits (limit and remaining null where it has none), and today's requests by route template. " +
          'Answered even when the key is over its limit, and not counted itself.',
        response: { 200: Ref(KeyUsageResponse), ...errorResponses({ 401: 'missing or invalid API key' }) },
      },
    },
    async (request) => {
      const key = request.apiKey as VerifiedKey;
      const { minute, day, byRoute } = await app.usageOf(key);
      return { key: { id: key.id, name: key.name }, minute, day, today: { byRoute } };
    },
  );
};
