import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OddsFormat } from '../../domain/odds-format.ts';
import { withPrices } from '../../read/prices.ts';

/**
 * `oddsFormat` on every priced route: the document a handler returns gets `price` on each
 * priced item before it is serialised (and cached, under a key that holds the format).
 */
export const oddsFormatPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preSerialization', async (request, _reply, payload) => {
      if (!request.routeOptions.config.priced) return payload;
      const format = (request.query as { oddsFormat?: OddsFormat } | undefined)?.oddsFormat;
      return withPrices(payload, format);
    });
  },
  { name: 'odds-format' },
);
