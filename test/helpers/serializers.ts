/**
 * Fastify's schema compilers for test apps, sharing compiled response serializers across the apps one
 * test process builds (Fastify's documented `schemaController.compilersFactory` option).
 *
 * Each app build compiles every route's serializer with fast-json-stringify, about a second of CPU for
 * this app, and a test file builds many apps. A compile is a pure function of the route's schema, the
 * shared schemas and the options, so the same input gets the serializer compiled the first time.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Serializer = (doc: unknown) => string;

const compileWith = SerializerSelector();
const compiled = new Map<string, Serializer>();

/** The JSON of a compile's input, or undefined when it holds a function (not comparable as JSON). */
function keyOf(value: unknown): string | undefined {
  let comparable = true;
  const key = JSON.stringify(value ?? null, (_name, item: unknown) => {
    if (typeof item === 'function') comparable = false;
    return item;
  });
  return comparable ? key : undefined;
}

export const sharedSerializers: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildSerializer(externalSchemas, options) {
      const compile = compileWith(externalSchemas, options);
      const shared = keyOf([externalSchemas, options]);
      return (route) => {
        const own = keyOf(route.schema);
        if (shared === undefined || own === undefined) return compile(route);
        const key = `${shared}\n${own}`;
        let serializer = compiled.get(key);
        if (!serializer) {
          serializer = compile(route);
          compiled.set(key, serializer);
        }
        return serializer;
      };
    },
  },
};
