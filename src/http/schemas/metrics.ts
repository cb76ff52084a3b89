import { Type } from 'typebox';
import { operation } from './common.ts';

/** The Prometheus text exposition: OpenAPI can only call it text. */
export const MetricsExposition = {
  description: 'text/plain; version=0.0.4',
  content: { 'text/plain': { schema: Type.String() } },
};

/** GET /metrics: for Prometheus to scrape. */
export const metricsOperation = operation({
  tags: ['operations'],
  summary: 'Prometheus metrics',
  description:
    'The Prometheus text exposition: requests and latency per route, response cache hits and misses, push-stream clients, ' +
    'rate-limit rejections, feed rows written, store errors, and process memory, CPU and event-loop figures. Needs no key; ' +
    'served on METRICS_PORT instead when that is set.',
  security: [],
  errors: {},
  codes: [],
});
