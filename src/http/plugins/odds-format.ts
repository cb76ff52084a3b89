import type { FastifyInstance, preSerializationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { OddsFormat } from '../../domain/odds-format.ts';
import { withPrices } from '../../read/prices.ts';

/**
 * `oddsFormat` on every priced route: the document a handler returns gets `price` on each priced item
 * before it is serialised (and cached, under a key that holds the format). The hook is the priced
 * routes' own (`config.priced`), so that no other answer crosses it.
 */
export const oddsFormatPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      if (!route.config?.priced) return;
      const own = route.preSerialization;
      route.preSerialization = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), withOddsFormat];
    });
  },
  { name: 'odds-format' },
);

const withOddsFormat: preSerializationAsyncHookHandler = async (request, _reply, payload) => {
  const format = (request.query as { oddsFormat?: OddsFormat } | undefined)?.oddsFormat;
  return withPrices(payload, format);
};
