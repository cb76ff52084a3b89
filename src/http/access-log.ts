import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

/**
 * One access-log line per answered request, at info, once its answer is sent: method, URL, remote
 * address, status and time, under the request's id. Fastify's own default is two lines per request,
 * one on arrival and one on completion: twice the writes for what one line says. A request that fails
 * is still logged at error, with its error.
 *
 * The line is written through the app's logger with the request's id as its first field: the same
 * JSON a per-request child logger writes, without making that child for every request (see
 * `lazyRequestLogger`).
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Fastify's serializers: method, url, host, remoteAddress and remotePort; the status code.
    const line = { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) request.server.log.error({ ...line, err: error }, 'request errored');
    else request.server.log.info(line, 'request completed');
  }
}

/**
 * Fastify's `childLoggerFactory`: a request's logger (`request.log`), whose pino child is made the
 * first time something logs under the request. Most requests log only their access line, which
 * AccessLog writes through the app's logger; making and binding a child for each of them cost more
 * than writing the line.
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogArguments = unknown[];
/** pino's log methods, each with its overloads taken as one. */
type Methods = Record<
  'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent',
  (...args: LogArguments) => void
>;

/** Prototype methods, not per-instance closures: one object a request, nothing else made until it logs. */
class LazyRequestLogger {
  #parent: FastifyBaseLogger;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
  fatal(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).fatal(...args);
  }
  error(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).error(...args);
  }
  warn(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).warn(...args);
  }
  info(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).info(...args);
  }
  debug(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).debug(...args);
  }
  trace(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).trace(...args);
  }
  silent(...args: LogArguments): void {
    (this.#logger() as unknown as Methods).silent(...args);
  }
}
