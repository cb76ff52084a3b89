/**
 * A real server for the client tests: the fixture app over a fresh SQLite store, listening on a free
 * loopback port, and a fetch that records what the client sent and got. SQLite only: the server is
 * tested on both stores elsewhere; here the subject is the client.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { FeedDocument } from '../../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../../src/ingest/ingest-feed.ts';
import type { Store } from '../../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp } from '../../helpers/app.ts';
import { type OpenOptions, openTestStore } from '../../helpers/stores.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  /** `http://127.0.0.1:<port>`: the client's baseUrl. */
  baseUrl: string;
  /** POST /api/v1/admin/feed with the admin key, over HTTP; throws unless 200. */
  postFeed(feed: FeedDocument): Promise<void>;
  close(): Promise<void>;
}

/** Starts the fixture app (fixtureFeed, the full TEST_KEY and WSL_ONLY_KEY) with `feeds` loaded after it. */
export async function startServer(
  options: { env?: Record<string, string>; feeds?: readonly FeedDocument[]; store?: OpenOptions } = {},
): Promise<RunningServer> {
  const { store, cleanup } = await openTestStore('sqlite', options.store);
  try {
    const { app } = await fixtureApp(store, options.env ?? {});
    for (const feed of options.feeds ?? []) await ingestFeed(store, feed);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    let closed = false;
    return {
      app,
      store,
      baseUrl,
      postFeed: async (feed) => {
        const response = await fetch(`${baseUrl}/api/v1/admin/feed`, {
          method: 'POST',
          headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
          body: JSON.stringify(feed),
        });
        if (response.status !== 200) throw new Error(`admin feed: ${response.status} ${await response.text()}`);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await app.close();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Headers;
  status: number;
  responseHeaders: Headers;
}

/** A fetch that forwards to the global one and records each exchange; `route` may rewrite the URL (a load balancer). */
export function recordingFetch(route: (url: string) => string = (url) => url): {
  fetch: typeof fetch;
  exchanges: Exchange[];
} {
  const exchanges: Exchange[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const response = await fetch(route(url), init);
    exchanges.push({
      method: init?.method ?? 'GET',
      url,
      requestHeaders: new Headers(init?.headers),
      status: response.status,
      responseHeaders: response.headers,
    });
    return response;
  };
  return { fetch: recording as typeof fetch, exchanges };
}
