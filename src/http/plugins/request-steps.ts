import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The onRequest stage as one hook: each concern (listeners, input guard, auth, rate limits, response
 * cache) adds a step, and the steps run in the order they were added. A step that has its answer at
 * once returns nothing; one that waits returns a promise, and the next step runs once it settles. A
 * thrown error or a rejection ends the stage with that error; an answer sent by a step ends it too.
 *
 * Fastify runs each hook of its own through a promise when it is async: a polling answer, which
 * mostly has every answer at once (a known key on its connection, a limit counted in this process, a
 * cached document), crossed five hooks and three promises before it was sent (docs/decisions.md "The
 * cost of a polling answer").
 */

/**
 * A step: `undefined` once done, or a promise of being done. Not `void`, which would let a step
 * return the reply itself (a thenable, settled only once the answer has gone out) by mistake.
 */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply) => undefined | Promise<unknown>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds a step to the onRequest stage, after those added before it. */
    onRequestStep(step: RequestStep): void;
  }
}

export const requestStepsPlugin = fp(
  async (app: FastifyInstance) => {
    const steps: RequestStep[] = [];
    app.decorate('onRequestStep', (step: RequestStep) => {
      steps.push(step);
    });
    app.addHook('onRequest', (request, reply, done) => runSteps(steps, 0, request, reply, done));
  },
  { name: 'request-steps' },
);

/** Runs `steps` from `from` on, at once while each has its answer, then `done` (with the error that ended them). */
function runSteps(
  steps: readonly RequestStep[],
  from: number,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  for (let i = from; i < steps.length && !reply.sent; i++) {
    let waiting: Promise<unknown> | undefined;
    try {
      waiting = steps[i]?.(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (waiting !== undefined) {
      waiting.then(() => runSteps(steps, i + 1, request, reply, done), done);
      return;
    }
  }
  done();
}
