import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pruneOddsHistory } from '../../ingest/odds-history-retention.ts';
import type { Store } from '../../store/database.ts';

/** The first prune waits for the server to be up; then one an hour. */
const FIRST_PRUNE_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Price history retention: every node prunes changes older than ODDS_HISTORY_DAYS on a
 * timer, not at write, so that price ticks never pay for it. Pruning is idempotent: nodes may overlap.
 */
export const oddsHistoryRetentionPlugin = fp(
  async (app: FastifyInstance, options: { store: Store; oddsHistoryDays: number }) => {
    const prune = () => {
      pruneOddsHistory(options.store, options.oddsHistoryDays)
        .then((pruned) => {
          if (pruned > 0) app.log.info({ pruned }, 'price history: %d changes past ODDS_HISTORY_DAYS pruned', pruned);
        })
        .catch((error: Error) => app.log.warn({ err: error }, 'price history retention: %s', error.message));
    };
    const first = setTimeout(prune, FIRST_PRUNE_MS);
    const timer = setInterval(prune, PRUNE_EVERY_MS);
    first.unref();
    timer.unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      clearInterval(timer);
    });
  },
  { name: 'odds-history-retention' },
);
