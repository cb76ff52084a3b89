import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * One access-log line per answered request, at info, once its last byte is handed to the socket:
 * method, URL, status and time, under the request's id (Fastify's own two lines per request, one on
 * arrival and one on completion, cost twice the writes for what one line says). Errors are logged
 * apart, at error, by the error handler; a request that never completes leaves no line here.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        // Fastify's serializers: method, url, host, remoteAddress and remotePort; the status code.
        { req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
      done();
    });
  },
  { name: 'request-log' },
);
