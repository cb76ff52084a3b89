import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { ParlayPool } from '../../read/parlay-draws.ts';
import type { SimulationDemand } from '../../read/parlay-simulations.ts';
import { ParlayWarming } from '../../read/parlay-warming.ts';
import type { ChangeFeed } from '../../store/change-feed.ts';
import type { Store } from '../../store/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker threads parlays' simulations are drawn on, shared fairly between keys. */
    parlayPool: ParlayPool;
    parlayWarming: ParlayWarming;
    /** What a parlay request's new simulations cost its key, and how long it waits for them. */
    simulationDemand(request: FastifyRequest, reply: FastifyReply): SimulationDemand;
  }
}

export type ParlayPricingSettings = Pick<
  Config,
  'sgpWorkers' | 'sgpSimulationsPerKey' | 'sgpSimulationCost' | 'sgpDeadlineMs'
>;

/** Events warmed at most per minute: a busy feed moves many prices, and warming is a guess. */
const WARMED_PER_MINUTE = 60;

/**
 * Parlay pricing's share of the machine: the draw pool, each request's demand on it (its
 * key, its rate-limit charge for a new simulation, its deadline), and warming on committed changes.
 * Registered after the rate-limit plugin, whose `chargeRequests` a new simulation pays through.
 */
export const parlayPricingPlugin = fp(
  async (app: FastifyInstance, options: { settings: ParlayPricingSettings; store: Store; feed: ChangeFeed }) => {
    const { settings } = options;
    const startsSimulation = `a parlay that starts a new simulation counts as ${settings.sgpSimulationCost} requests (SGP_SIMULATION_COST)`;
    const pool = new ParlayPool({ threads: settings.sgpWorkers, perKeyInFlight: settings.sgpSimulationsPerKey });
    const warming = new ParlayWarming(options.store, pool, {
      perMinute: WARMED_PER_MINUTE,
      onError: (error, eventId) => app.log.warn({ err: error, eventId }, 'parlay warming failed: %s', error.message),
    });
    const unsubscribe = options.feed.subscribe((changes) =>
      warming.changed(changes.filter((c) => c.kind === 'odds' && c.eventId !== null).map((c) => c.eventId as string)),
    );
    // A server that listens starts a draw thread at once (tests through inject do not pay for one).
    app.addHook('onListen', async () => {
      pool.warmUp().catch((error: Error) => app.log.warn({ err: error }, 'parlay pool: %s', error.message));
    });
    app.addHook('onClose', async () => {
      unsubscribe();
      await warming.close();
      await pool.close();
    });
    app.decorate('parlayPool', pool);
    app.decorate('parlayWarming', warming);
    app.decorate(
      'simulationDemand',
      (request: FastifyRequest, reply: FastifyReply): SimulationDemand => ({
        pool,
        owner: request.apiKey?.id ?? 'anonymous',
        priority: 'client',
        // The request itself was counted as one when it came in.
        pay: () => app.chargeRequests(request, reply, settings.sgpSimulationCost - 1, startsSimulation),
        deadline: Date.now() + settings.sgpDeadlineMs,
      }),
    );
  },
  { name: 'parlay-pricing', dependencies: ['rate-limit'] },
);
