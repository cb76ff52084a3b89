/**
 * Fastify's schema compilers for test apps: compiled on first use as in the app, and shared across the
 * apps one test process builds (Fastify's documented `schemaController.compilersFactory` option).
 *
 * A test file builds many apps, and a compile is a pure function of the route's schema, the shared
 * schemas and the options. Validators come from one Ajv pool for the process (keyed by the shared
 * schemas and options), which caches each compiled schema by the schema object: the route files'
 * schemas are module constants, so each is compiled once per process. Serializers are kept by the
 * JSON of their input.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { type BuildSerializer, lazyCompilers } from '../../src/http/schema-compilers.ts';

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

const sharedSerializer: BuildSerializer = (externalSchemas, options) => {
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
};

export const sharedCompilers = lazyCompilers(AjvCompiler(), sharedSerializer);
