import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VerifiedKey } from '../../access/api-keys.ts';
import { Ref } from '../../shapes/common.ts';
import { KeyUsageResponse } from '../../shapes/usage.ts';
import { usageOperation } from '../schemas/usage.ts';

export const usageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/usage',
    {
      config: { access: 'public', uncounted: true },
      schema: { ...usageOperation.docs, response: { 200: Ref(KeyUsageResponse), ...usageOperation.errors } },
    },
    async (request) => {
      const key = request.apiKey as VerifiedKey;
      const { minute, day, month, byRoute } = await app.usageOf(key);
      return { key: { id: key.id, name: key.name }, minute, day, month, today: { byRoute } };
    },
  );
};
