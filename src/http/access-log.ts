import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import pino from 'pino';
import { LogLines } from './log-lines.ts';

/**
 * One access-log line per answered request, at info, once its answer is sent: method, URL, remote
 * address, status and time, under the request's id. Fastify's own default is two lines per request,
 * one on arrival and one on completion: twice the writes for what one line says. A request that fails
 * is still logged at error, with its error.
 *
 * The line is the JSON pino would write for these fields, made as text and written to the logger's own
 * destination, after pino's own time and bindings (`pino.symbols`, its integration API): pino's
 * serialisers and per-field stringifying cost a polling answer more than the rest of its hooks
 * (docs/decisions.md "The cost of a polling answer"). What the line says is read as the answer goes;
 * our destination (log-lines.ts) makes it into text with its batch. Lines about failures go through pino.
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
    // What the line says is read now; our own destination makes it into text with its batch.
    const head = `{"level":${INFO}${parts.time()}${parts.bindings},`;
    const fields = answered(request, reply);
    parts.writeLine(() => `${head}${accessMembers(fields)},"msg":"request completed"}\n`);
  }
}

/**
 * What the access line says of a request, as JSON members: pino's fields for it, as Fastify's
 * serializers write them (method, URL, host, remote address and port; status; time).
 */
export function accessFields(request: FastifyRequest, reply: FastifyReply): string {
  return accessMembers(answered(request, reply));
}

/** What the access line records of an answer, read as it is sent. */
interface Answered {
  id: string;
  /** The `"req"` member, as JSON. */
  req: string;
  statusCode: number;
  responseTime: number;
}

function answered(request: FastifyRequest, reply: FastifyReply): Answered {
  return { id: request.id, req: requestMember(request), statusCode: reply.statusCode, responseTime: reply.elapsedTime };
}

function accessMembers({ id, req, statusCode, responseTime }: Answered): string {
  return `"reqId":${JSON.stringify(id)},${req},"res":{"statusCode":${statusCode}},"responseTime":${JSON.stringify(responseTime)}`;
}

/** A connection's address and port, and the `"req"` member of its last request. */
interface ConnectionLine {
  peer: string;
  method: string;
  url: string;
  host: string | undefined;
  member: string;
}

const connections = new WeakMap<object, ConnectionLine>();

/**
 * The `"req"` member: made once per connection and reused while its requests ask the same thing (a
 * polling client asks one URL again and again), the address and port (no proxy is trusted: they are
 * the socket's) once per connection. Each µs an answer spends costs it about three on a loaded
 * server (docs/decisions.md "The cost of a polling answer").
 */
function requestMember(request: FastifyRequest): string {
  const socket = request.socket;
  const last = connections.get(socket);
  const { method, url, host } = request;
  if (last !== undefined && last.url === url && last.method === method && last.host === host) return last.member;
  const peer = last?.peer ?? peerMembers(request);
  // An HTTP/1.0 request may come without a Host: the member is left out, as JSON.stringify leaves it.
  const hostMember = host === undefined ? '' : `,"host":${JSON.stringify(host)}`;
  const member = `"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}${hostMember}${peer}}`;
  connections.set(socket, { peer, method, url, host, member });
  return member;
}

/** `,"remoteAddress":…,"remotePort":…` of the request's connection (what it has of them). */
function peerMembers(request: FastifyRequest): string {
  const members = JSON.stringify({ remoteAddress: request.ip, remotePort: request.socket.remotePort }).slice(1, -1);
  return members === '' ? '' : `,${members}`;
}

const INFO = pino.levels.values.info;

/** What the access line takes of the app's pino logger, looked up once per logger. */
interface PinoParts {
  isLevelEnabled(level: string): boolean;
  /** Writes the line `make` makes: our own destination makes it with its batch (LogLines.later), another at once. */
  writeLine(make: () => string): void;
  time: () => string;
  bindings: string;
}

const partsOf = new WeakMap<FastifyBaseLogger, PinoParts | null>();

/** The app's pino logger's level, destination, time field and bindings; null for Fastify's logger of none (`logger: false`). */
function pinoParts(log: FastifyBaseLogger): PinoParts | null {
  let parts = partsOf.get(log);
  if (parts === undefined) {
    const pinoLogger = log as unknown as Record<symbol, unknown> & Pick<PinoParts, 'isLevelEnabled'>;
    const stream = pinoLogger[pino.symbols.streamSym] as { write(line: string): unknown } | undefined;
    parts = stream
      ? {
          isLevelEnabled: (level) => pinoLogger.isLevelEnabled(level),
          writeLine: stream instanceof LogLines ? (make) => stream.later(make) : (make) => void stream.write(make()),
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
