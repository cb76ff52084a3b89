import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One access-log line per answered request, at info, once its answer is sent: method, URL, remote
 * address, status and time, under the request's id. Fastify's own default is two lines per request,
 * one on arrival and one on completion: twice the writes for what one line says. A request that fails
 * is still logged at error, with its error.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Fastify's serializers: method, url, host, remoteAddress and remotePort; the status code.
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
