import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of Node's own tick objects (what `process.nextTick` queues) alive for the life of the
 * process, so that V8 keeps building every later one inline.
 *
 * Why: the tick object is a literal with computed (symbol) keys, and V8 records, per key, the map the
 * object had before it, weakly. Once those maps have gone unused through three full garbage
 * collections (V8 retains maps for two), they are cleared; the next tick object then shows V8 a map
 * other than the recorded one, and V8 marks those keys megamorphic for good. From then on each tick
 * object is built in V8's runtime, about 3.5 µs per request on a cached 3.8 KB answer (Node's
 * streams and HTTP internals queue several ticks per request). A long-running API process does full
 * collections with no tick object alive; a raw node:http server rarely does one at all.
 * test/http/tick-object-shape.test.ts shows both; BENCHMARKS.md "Results after session 11" the cost.
 *
 * Call it first thing in the process, before the app's modules load: once the keys have gone
 * megamorphic, keeping an object does not bring them back.
 */
export function keepTickObjectShape(): void {
  if (kept !== undefined) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && kept === undefined) kept = resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
}
