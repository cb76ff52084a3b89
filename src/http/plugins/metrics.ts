import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { entryOf } from '../../base/map-entry.ts';
import { CodedError } from '../../domain/errors.ts';
import type { Store } from '../../store/database.ts';
import type { WriteCounts } from '../../store/repositories/feed-facts-repository.ts';
import { routeOf } from '../route-config.ts';
import { TalliedHistogram } from '../tallied-histogram.ts';
import { isStoreUnavailable } from './errors.ts';

/**
 * Prometheus metrics of one API instance: requests by route and status with their latency, response
 * cache lookups, push-stream clients, rate-limit rejections, feed rows written and store errors.
 * Plugins count what only they see (cache hits, stream clients) through `app.metrics`; the rest is
 * counted here from the request lifecycle and the store's ingest signal.
 */
export interface ApiMetrics {
  /** Counts one public GET looked up in the response cache. */
  countCacheLookup(hit: boolean): void;
  /** Counts one answered request by its route template (`unmatched` when no route matched). */
  countRequest(route: string, method: string, status: number, seconds: number): void;
  streamClients: Gauge;
  /** Registers how to read what the response cache holds, at each scrape. */
  observeResponseCache(read: () => ResponseCacheSize): void;
  /** The Prometheus text exposition of this instance and of the process (memory, CPU, GC, event loop). */
  exposition(): Promise<string>;
  contentType: string;
}

export interface ResponseCacheSize {
  entries: number;
  bytes: number;
  filings: number;
}

const RESPONSE_CACHE_GAUGES: Record<keyof ResponseCacheSize, string> = {
  entries: 'Documents held by the response cache',
  bytes: 'Bytes of the documents held by the response cache, each coding held (identity, br, gzip) counted',
  filings:
    'Tag filings of the cached documents (one per tag of each document): bounded by entries times tags per document',
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ApiMetrics;
  }
}

// Process metrics are per process, not per app instance: registered once, shared by every instance.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** From a cached hit (well under a millisecond) to a large cold document or a parlay (seconds). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { store: Store }) => {
    const registry = new Registry();
    const requests = requestMetrics(registry);
    const metrics: ApiMetrics = {
      ...requests,
      streamClients: new Gauge({
        name: 'altsports_stream_clients',
        help: 'Clients connected to the push stream',
        registers: [registry],
      }),
      observeResponseCache: responseCacheGauges(registry),
      contentType: registry.contentType,
      exposition: async () => `${await processMetrics().metrics()}\n${await registry.metrics()}\n`,
    };
    app.decorate('metrics', metrics);

    const unsubscribe = options.store.onIngest(ingestCounter(registry));
    app.addHook('onClose', async () => unsubscribe());
    app.addHook('onError', storeErrorCounter(registry));
    // Runs for streams and hijacked replies too, once the answer has been sent.
    app.addHook('onResponse', (request, reply, done) => {
      requests.countRequest(
        routeOf(request).url ?? 'unmatched',
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'metrics' },
);

/**
 * Requests by route, method and status, their latency, the 429s, and the response cache's lookups.
 * The request and lookup counts and the latencies are tallied per answer in plain maps and handed to
 * prom-client at each scrape: a labelled prom-client call hashes its labels every time, which a
 * polling answer paid for each series it touched.
 */
function requestMetrics(registry: Registry): Pick<ApiMetrics, 'countRequest' | 'countCacheLookup'> {
  const answered = new Map<string, Map<string, Map<number, number>>>();
  new Counter({
    name: 'altsports_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [route, byMethod] of answered)
        for (const [method, byStatus] of byMethod)
          for (const [status, n] of byStatus) this.inc({ route, method, status }, n);
    },
  });
  const duration = new TalliedHistogram({
    name: 'altsports_http_request_duration_seconds',
    help: 'Time from receiving a request to the last byte of its answer, by route template and method (stream routes: the life of the stream)',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'altsports_rate_limit_rejections_total',
    help: 'Requests answered 429 because their key was over its rate limit',
    registers: [registry],
  });
  const lookups = { hit: 0, miss: 0 };
  new Counter({
    name: 'altsports_response_cache_lookups_total',
    help: 'Public GETs looked up in the response cache: hit or miss (hit ratio = hit / (hit + miss))',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      for (const result of ['hit', 'miss'] as const) this.inc({ result }, lookups[result]);
    },
  });
  return {
    countCacheLookup: (hit) => {
      if (hit) lookups.hit++;
      else lookups.miss++;
    },
    countRequest: (route, method, status, seconds) => {
      const byMethod = entryOf(answered, route, () => new Map<string, Map<number, number>>());
      const byStatus = entryOf(byMethod, method, () => new Map<number, number>());
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      duration.tally(route, method, seconds);
      if (status === 429) rateLimited.inc();
    },
  };
}

/** The response cache's size, read from it at each scrape; returns how the cache registers its reader. */
function responseCacheGauges(registry: Registry): ApiMetrics['observeResponseCache'] {
  let readCache = (): ResponseCacheSize => ({ entries: 0, bytes: 0, filings: 0 });
  for (const [field, help] of Object.entries(RESPONSE_CACHE_GAUGES) as Array<[keyof ResponseCacheSize, string]>) {
    new Gauge({
      name: `altsports_response_cache_${field}`,
      help,
      registers: [registry],
      collect() {
        this.set(readCache()[field]);
      },
    });
  }
  return (read) => {
    readCache = read;
  };
}

/** Feed rows and batches this process wrote, from the store's ingest signal. */
function ingestCounter(registry: Registry) {
  const ingestRows = new Counter({
    name: 'altsports_ingest_rows_total',
    help: 'Feed rows written by this process, by collection and outcome (inserted, updated, unchanged, stale)',
    labelNames: ['collection', 'outcome'],
    registers: [registry],
  });
  const ingestBatches = new Counter({
    name: 'altsports_ingest_batches_total',
    help: 'Feed batches committed by this process',
    registers: [registry],
  });
  return (rows: Record<string, WriteCounts>) => {
    ingestBatches.inc();
    for (const [collection, counts] of Object.entries(rows)) {
      for (const outcome of ['inserted', 'updated', 'unchanged', 'stale'] as const)
        if (counts[outcome] > 0) ingestRows.inc({ collection, outcome }, counts[outcome]);
    }
  };
}

/** Requests that failed on the server, as an onError hook: client errors (ours and Fastify's 4xx) are not. */
function storeErrorCounter(registry: Registry) {
  const storeErrors = new Counter({
    name: 'altsports_store_errors_total',
    help: 'Requests that failed on the server: unavailable when the store could not be reached (answered 503), internal for any other failure (answered 500)',
    labelNames: ['kind'],
    registers: [registry],
  });
  // Both series exist from the start, so that a rate over them is defined before the first error.
  for (const kind of ['unavailable', 'internal']) storeErrors.inc({ kind }, 0);
  return async (_request: FastifyRequest, _reply: FastifyReply, error: FastifyError) => {
    if (error instanceof CodedError || (error.statusCode ?? 500) < 500) return;
    storeErrors.inc({ kind: isStoreUnavailable(error) ? 'unavailable' : 'internal' });
  };
}
