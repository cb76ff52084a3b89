import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BetStopRules } from '../../domain/feed-health.ts';
import { publishBetStops } from '../../ingest/bet-stop.ts';
import type { Store } from '../../store/database.ts';

/**
 * The derived bet stops, pushed: every node looks each `intervalMs` for LIVE events the
 * feed has been silent about for FEED_STALE_SECONDS, or whose SCORE_CHANGE suspension starts or ends,
 * and the first to see one pushes it on the stream (the store makes sure only one does). The published status itself is
 * derived at read time, so a node that is down or slow changes nothing but the push's delay.
 */
export const betStopPlugin = fp(
  async (app: FastifyInstance, options: { store: Store; rules: BetStopRules; intervalMs?: number }) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      publishBetStops(options.store, options.rules)
        .catch((error: Error) => app.log.warn({ err: error }, 'bet stop: %s', error.message))
        .finally(() => {
          running = false;
        });
    }, options.intervalMs ?? 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'bet-stop' },
);
