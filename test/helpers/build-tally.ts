import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Handlers run (documents built, bet-builder answers composed) per API key, and the most at once. */
export interface BuildTally {
  built: Map<string, number>;
  most: Map<string, number>;
}

/**
 * Tallies, by `X-API-KEY`, the requests of routes that build documents (cache tags) or compose
 * answers by turns (`config.builds`) that reach their handler: a hook after the response cache's
 * preHandler, so a cache hit does not count; each counts as running until its answer is sent. Add
 * before the app is ready.
 */
export function tallyBuilds(app: FastifyInstance): BuildTally {
  const built = new Map<string, number>();
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const keyOf = (request: FastifyRequest) => String(request.headers['x-api-key']);
  const builds = (request: FastifyRequest) => {
    const { cacheTags, builds } = request.routeOptions.config;
    return cacheTags !== undefined || builds === true;
  };
  app.addHook('preHandler', async (request) => {
    if (!builds(request)) return;
    const key = keyOf(request);
    built.set(key, (built.get(key) ?? 0) + 1);
    running.set(key, (running.get(key) ?? 0) + 1);
    most.set(key, Math.max(most.get(key) ?? 0, running.get(key) ?? 0));
  });
  app.addHook('onResponse', async (request) => {
    if (builds(request)) running.set(keyOf(request), (running.get(keyOf(request)) ?? 1) - 1);
  });
  return { built, most };
}

/**
 * Waits until the changes of the fixture's own load have reached the app (PostgreSQL's notifications
 * come a little later): a build overlapping a change is rightly not cached, and its waiters build
 * again. Settled once the document at `path` (of the tags the test's documents have), asked for twice
 * by `key`, is answered from the cache.
 */
export async function cacheSettled(
  tally: BuildTally,
  get: (path: string) => Promise<unknown>,
  key: string,
  path = '/sports',
): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await get(path);
    const built = tally.built.get(key) ?? 0;
    await get(path);
    if ((tally.built.get(key) ?? 0) === built) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the change feed never settled');
}
