import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import pino from 'pino';

/**
 * One access-log line per answered request, at info, once its answer is sent: method, URL, remote
 * address, status and time, under the request's id. Fastify's own default is two lines per request,
 * one on arrival and one on completion: twice the writes for what one line says. A request that fails
 * is still logged at error, with its error.
 *
 * The line is the JSON pino would write for these fields, made with one JSON.stringify and written to
 * the logger's own destination, after pino's own time and bindings (`pino.symbols`, its integration
 * API): pino's serialisers and per-field stringifying cost a polling answer more than the rest of its
 * hooks (docs/decisions.md "The cost of a polling answer"). Lines about failures go through pino.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const log = request.server.log;
    if (error) {
      // Fastify's serializers: method, url, host, remoteAddress and remotePort; the status code.
      const line = { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
      log.error({ ...line, err: error }, 'request errored');
      return;
    }
    const parts = pinoParts(log);
    // No logger (tests), or a level above info.
    if (!parts?.isLevelEnabled('info')) return;
    parts.stream.write(
      `{"level":${INFO}${parts.time()}${parts.bindings},${accessFields(request, reply)},"msg":"request completed"}\n`,
    );
  }
}

/**
 * What the access line says of a request, as JSON members: pino's fields for it, as Fastify's
 * serializers write them (method, URL, host, remote address and port; status; time). The
 * connection's address and port (no proxy is trusted: they are the socket's) are made once per
 * connection, not once per request.
 */
export function accessFields(request: FastifyRequest, reply: FastifyReply): string {
  // An HTTP/1.0 request may come without a Host: the member is left out, as JSON.stringify leaves it.
  const host = request.host === undefined ? '' : `,"host":${JSON.stringify(request.host)}`;
  const req = `"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)}${host}${peerOf(request)}`;
  return `"reqId":${JSON.stringify(request.id)},"req":{${req}},"res":{"statusCode":${reply.statusCode}},"responseTime":${JSON.stringify(reply.elapsedTime)}`;
}

const peers = new WeakMap<object, string>();

/** `,"remoteAddress":…,"remotePort":…` of the request's connection (what it has of them). */
function peerOf(request: FastifyRequest): string {
  const socket = request.socket;
  let peer = peers.get(socket);
  if (peer === undefined) {
    const members = JSON.stringify({ remoteAddress: request.ip, remotePort: socket.remotePort }).slice(1, -1);
    peer = members === '' ? '' : `,${members}`;
    peers.set(socket, peer);
  }
  return peer;
}

const INFO = pino.levels.values.info;

/** What the access line takes of the app's pino logger, looked up once per logger. */
interface PinoParts {
  isLevelEnabled(level: string): boolean;
  stream: { write(line: string): unknown };
  time: () => string;
  bindings: string;
}

const partsOf = new WeakMap<FastifyBaseLogger, PinoParts | null>();

/** The app's pino logger's level, destination, time field and bindings; null for Fastify's logger of none (`logger: false`). */
function pinoParts(log: FastifyBaseLogger): PinoParts | null {
  let parts = partsOf.get(log);
  if (parts === undefined) {
    const pinoLogger = log as unknown as Record<symbol, unknown> & Pick<PinoParts, 'isLevelEnabled'>;
    const stream = pinoLogger[pino.symbols.streamSym] as PinoParts['stream'] | undefined;
    parts = stream
      ? {
          isLevelEnabled: (level) => pinoLogger.isLevelEnabled(level),
          stream,
          time: pinoLogger[pino.symbols.timeSym] as PinoParts['time'],
          get bindings() {
            return pinoLogger[pino.symbols.chindingsSym] as string;
          },
        }
      : null;
    partsOf.set(log, parts);
  }
  return parts;
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
