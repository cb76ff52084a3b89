/**
 * Preloaded into every test file's process by scripts/run-tests.ts (`--import`), before Fastify loads.
 *
 * Each app build compiles every route's response serializer with fast-json-stringify, about a second of
 * CPU for this app (most of it re-validating the shared schemas for each route), and the suite builds
 * over a hundred apps. The compile is a pure function of the schema and its options, so a process
 * keeps the serializers it compiled and hands the same one out for the same input: what the app
 * serializes with is unchanged, only not compiled twice. Options that hold functions are never cached.
 * Child processes (`altsports serve` and the other CLI tests) do not get this preload.
 */
import { createRequire } from 'node:module';

type Build = ((schema: unknown, options?: unknown) => unknown) & Record<string, unknown>;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('@fastify/fast-json-stringify-compiler'));
const modulePath = fromFastify.resolve('fast-json-stringify');
const build = fromFastify('fast-json-stringify') as Build;
const compiled = new Map<string, unknown>();

/** The cache key of a compile, or undefined when its input holds a function (not comparable as JSON). */
function keyOf(schema: unknown, options: unknown): string | undefined {
  let comparable = true;
  const key = JSON.stringify([schema, options ?? null], (_name, value: unknown) => {
    if (typeof value === 'function') comparable = false;
    return value;
  });
  return comparable ? key : undefined;
}

const memoized = Object.assign((schema: unknown, options?: unknown) => {
  const key = keyOf(schema, options);
  if (key === undefined) return build(schema, options);
  if (!compiled.has(key)) compiled.set(key, build(schema, options));
  return compiled.get(key);
}, build);

const cached = fromFastify.cache[modulePath];
if (!cached) throw new Error(`serializer-memo: ${modulePath} did not load through require`);
cached.exports = memoized;
