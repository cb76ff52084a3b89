/**
 * Response serializers compiled on a route's first answer rather than at start (Fastify's documented
 * `schemaController.compilersFactory` option). fast-json-stringify checks every shared schema again for
 * each route it compiles: about 1.3 s of CPU before the first answer for this app's ~40 routes and
 * statuses, most of them never asked for in a run. A route's first answer with a status pays its
 * compile (tens of milliseconds) once; a schema fast-json-stringify refuses fails that answer with a
 * 500, and the OpenAPI test serializes every route's examples so that none reaches a user.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Serializer = (doc: unknown) => string;

const compileWith = SerializerSelector();

export const lazySerializers: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildSerializer(externalSchemas, options) {
      const compile = compileWith(externalSchemas, options);
      return (route) => {
        let serializer: Serializer | undefined;
        return (doc: unknown) => {
          serializer ??= compile(route);
          return serializer(doc);
        };
      };
    },
  },
};
