import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { normaliseArrayParam } from '../query-params.ts';

/**
 * One rule for list parameters on every route (DESIGN decision 4): a query parameter that a
 * route's schema declares as an array is read in every encoding clients send (repeated, a comma list,
 * `name[]=`, indexed `name[0]=`), before validation. A route declares the array; nothing else.
 */
export const listParamsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const names = arrayParameters(route.schema?.querystring);
      if (names.length === 0) return;
      const normalise: preValidationHookHandler = async (request: FastifyRequest) => {
        let query = request.query as Record<string, unknown>;
        for (const name of names) query = normaliseArrayParam(query, name);
        request.query = query;
      };
      const own = route.preValidation as onRequestHookHandler | onRequestHookHandler[] | undefined;
      route.preValidation = [normalise, ...(own === undefined ? [] : [own].flat())] as preValidationHookHandler[];
    });
  },
  { name: 'list-params' },
);

/** The names of the querystring schema's array-valued properties. */
function arrayParameters(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'array')
    .map(([name]) => name);
}
