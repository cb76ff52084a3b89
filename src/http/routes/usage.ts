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
          "The calling key's requests this clock minute, this UTC day and this calendar month against its limits and its plan's monthly quota (limit and remaining null where it has none), and today's requests by route template. " +
          'Counts are kept in the store: they cover every server and outlive restarts (written every USAGE_FLUSH_SECONDS). ' +
          'Answered even when the key is over its limit, and not counted itself.',
        response: { 200: Ref(KeyUsageResponse), ...errorResponses({ 401: 'missing or invalid API key' }) },
      },
    },
    async (request) => {
      const key = request.apiKey as VerifiedKey;
      const { minute, day, month, byRoute } = await app.usageOf(key);
      return { key: { id: key.id, name: key.name }, minute, day, month, today: { byRoute } };
    },
  );
};
