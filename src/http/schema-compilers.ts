/**
 * Fastify's schema compilers, compiling each route's validators and serializers on the route's first
 * request rather than at start (Fastify's documented `schemaController.compilersFactory` option).
 * Compiling all of them eagerly cost about 1.3 s of CPU for the serializers and 0.5 s for the
 * validators before the first answer, and most routes are never asked for in a run; the
 * tests, which build hundreds of apps, paid it on every build. A route's first request
 * pays its compile (milliseconds) once. A schema Ajv or fast-json-stringify refuses fails that
 * request with a 500: test/http/schema-compilers.test.ts compiles every route eagerly so none does.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
export type BuildValidator = NonNullable<Factory['buildValidator']>;
export type BuildSerializer = NonNullable<Factory['buildSerializer']>;

type Validator = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * A validator standing for the one `compile` makes on first use. Fastify reads the validator's
 * `schemaEnv` (to let Ajv coerce a root value) and `errors` (after a failure): both come from the
 * compiled function.
 */
function lazyValidator(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const real = () => {
    compiled ??= compile();
    return compiled;
  };
  const validator: Validator = (data, context) => real()(data, context);
  Object.defineProperties(validator, {
    schemaEnv: { get: () => real().schemaEnv },
    errors: { get: () => real().errors },
  });
  return validator;
}

/**
 * The options for bodies: JSON carries its own types, so a body is validated as sent (a
 * string `oddIds` had been coerced into a list of one). Coercion stays for the path, query and
 * headers, which are text (`limit=5`, one `eventStatus` taken as a list).
 */
function withoutCoercion(options: Parameters<BuildValidator>[1]): Parameters<BuildValidator>[1] {
  const ajv = (options ?? {}) as { customOptions?: Record<string, unknown> };
  return { ...ajv, customOptions: { ...ajv.customOptions, coerceTypes: false } } as Parameters<BuildValidator>[1];
}

/** `build`'s compilers, each route's made on its first use (and the compiler itself then too). */
export function lazyCompilers(
  buildValidator: BuildValidator = AjvCompiler(),
  buildSerializer: BuildSerializer = SerializerSelector(),
): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator(externalSchemas, options) {
        let compiler: ReturnType<BuildValidator> | undefined;
        let bodyCompiler: ReturnType<BuildValidator> | undefined;
        const compile = (route: Parameters<ReturnType<BuildValidator>>[0]) =>
          lazyValidator(() => {
            if (route.httpPart === 'body') {
              bodyCompiler ??= buildValidator(externalSchemas, withoutCoercion(options));
              return bodyCompiler(route) as Validator;
            }
            compiler ??= buildValidator(externalSchemas, options);
            return compiler(route) as Validator;
          });
        // Typed as Ajv's own function; Fastify calls it and reads only its schemaEnv and errors.
        return compile as unknown as ReturnType<BuildValidator>;
      },
      buildSerializer(externalSchemas, options) {
        let compiler: ReturnType<BuildSerializer> | undefined;
        return (route) => {
          let serializer: ((doc: unknown) => string) | undefined;
          return (doc: unknown) => {
            compiler ??= buildSerializer(externalSchemas, options);
            serializer ??= compiler(route);
            return serializer(doc);
          };
        };
      },
    },
  };
}
