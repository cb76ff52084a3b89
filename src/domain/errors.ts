/**
 * The error catalogue: every failure the API or the CLI reports, declared once with a stable `code`,
 * the kind of failure it is and its message template. Every layer throws `fail(code, ...)`; the HTTP
 * layer gives each kind its status (http/error-statuses.ts) and renders the specification's
 * ServerErrorResponse with the code added, the CLI gives each an exit code (cli/main.ts).
 *
 * Codes are part of the interface: clients tell two 400s apart by them. Rename none; add new ones.
 */

/** What went wrong, in words of no protocol: the HTTP layer maps each to a status. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'timeout'
  | 'gone'
  | 'too-large'
  | 'uri-too-long'
  | 'unsupported-media'
  | 'unprocessable'
  | 'too-many'
  | 'headers-too-large'
  | 'refused'
  | 'internal'
  | 'unavailable'
  | 'startup';

/** Where a code is given, for the OpenAPI document: `public` routes (the default), `admin` routes, or the CLI only. */
type Scope = 'public' | 'admin' | 'cli';

// biome-ignore lint/suspicious/noExplicitAny: each template declares its own parameters
const declare = <Template extends (params: any) => string>(
  kind: ErrorKind,
  message: Template,
  scope: Scope = 'public',
) => ({
  kind,
  message,
  scope,
});

const competitionName = (c: { name: string; key: string }) => `${c.name} (${c.key})`;
const CURSOR_ADVICE = "use the value of a previous response's Link header";

export const ERRORS = {
  // The request as a whole.
  ROUTE_NOT_FOUND: declare(
    'not-found',
    (p: { method: string; path: string }) => `Route ${p.method} ${p.path} not found`,
  ),
  INVALID_PARAMETER: declare(
    'invalid',
    (p: { where: string; name: string; reason: string }) => `Invalid ${p.where} "${p.name}": ${p.reason}`,
  ),
  INVALID_CURSOR: declare('invalid', () => `Invalid query parameter "cursor": ${CURSOR_ADVICE}`),
  INVALID_DATE_RANGE: declare(
    'invalid',
    (p: { later: string; earlier: string }) => `Invalid query parameters: "${p.later}" is before "${p.earlier}"`,
  ),
  COMPETITION_CONFLICT: declare(
    'invalid',
    () => 'Conflicting query parameters "competition" and "sportType" (deprecated alias): give one, or the same values',
  ),
  INVALID_BODY: declare('invalid', (p: { reason: string }) => `Invalid request body: ${p.reason}`),
  BODY_EMPTY: declare('invalid', () => 'Request body is empty: send a JSON document'),
  BODY_NOT_JSON: declare(
    'invalid',
    (p: { problem?: string }) => `Request body is not valid JSON${p.problem ? `: ${p.problem}` : ''}`,
  ),
  BODY_NOT_UTF8: declare(
    'invalid',
    (p: { at: number }) => `Request body is not valid UTF-8 at byte ${p.at}: send JSON as UTF-8`,
  ),
  BODY_TOO_DEEP: declare(
    'invalid',
    (p: { maxDepth: number; at: number }) => `Request body is nested more than ${p.maxDepth} deep (at byte ${p.at})`,
  ),
  BODY_PROTOTYPE_KEY: declare(
    'invalid',
    () => 'Request body holds a "__proto__" or "constructor.prototype" key, which is not accepted',
  ),
  BODY_TOO_LARGE: declare(
    'too-large',
    (p: { limit?: number }) =>
      `Request body is too large${p.limit === undefined ? '' : `: at most ${p.limit} bytes are taken`}`,
  ),
  UNSUPPORTED_MEDIA_TYPE: declare('unsupported-media', () => 'Unsupported Content-Type: send application/json'),
  UNSUPPORTED_CHARSET: declare(
    'unsupported-media',
    (p: { charset: string }) => `Unsupported charset "${p.charset}": send JSON as UTF-8`,
  ),
  INVALID_TEXT: declare(
    'invalid',
    () => 'Invalid text: the request holds characters no store accepts (NUL or malformed Unicode)',
  ),
  INVALID_PREFLIGHT: declare(
    'invalid',
    () => 'Invalid preflight request: send Origin and Access-Control-Request-Method',
  ),
  INVALID_URL: declare('invalid', () => 'Invalid URL: the path is not valid percent-encoded UTF-8'),
  URI_TOO_LONG: declare('uri-too-long', () => 'URI too long: a path segment is longer than any id'),
  MALFORMED_HTTP: declare('invalid', (p: { detail?: string }) => `Bad request${p.detail ? `: ${p.detail}` : ''}`),
  REQUEST_TIMEOUT: declare('timeout', () => 'Request timeout: the request did not arrive in time'),
  HEADERS_TOO_LARGE: declare('headers-too-large', () => 'Request headers are too large'),
  /** A refusal of the web framework's own, with the status it chose (http/plugins/errors.ts). */
  REQUEST_REFUSED: declare('refused', (p: { reason: string }) => p.reason),

  // Who is asking.
  API_KEY_MISSING: declare(
    'unauthenticated',
    () => 'Missing API key: send it in the X-API-KEY header or as Authorization: Bearer <key>',
  ),
  API_KEY_INVALID: declare('unauthenticated', () => 'Invalid API key'),
  STREAM_TOKEN_INVALID: declare(
    'unauthenticated',
    () => 'Invalid or expired stream token: ask POST /stream/tokens for a new one',
  ),
  ADMIN_API_CLOSED: declare(
    'unauthenticated',
    () => 'The admin API is closed: the server has no ADMIN_API_KEY',
    'admin',
  ),
  ADMIN_API_KEY_INVALID: declare('unauthenticated', () => 'Missing or invalid admin API key', 'admin'),
  COMPETITION_FORBIDDEN: declare(
    'forbidden',
    (p: { competition: string }) => `This API key does not give access to the competition "${p.competition}"`,
  ),

  // How much.
  RATE_LIMITED: declare(
    'too-many',
    (p: { why?: string; remaining?: number; limit: number; window: string; retryAfter: number }) =>
      p.why === undefined
        ? `Rate limit exceeded: this API key may make ${p.limit} requests per ${p.window}; retry in ${p.retryAfter} s`
        : `Rate limit exceeded: ${p.why}, and this API key has ${p.remaining} of its ${p.limit} requests per ${p.window} left; retry in ${p.retryAfter} s`,
  ),
  QUOTA_EXCEEDED: declare(
    'too-many',
    (p: { limit: number; retryAfter: number }) =>
      `Monthly quota exceeded: this API key's plan allows ${p.limit} requests per calendar month (UTC); retry in ${p.retryAfter} s, when the next month starts`,
  ),
  TOO_MANY_STREAMS: declare(
    'too-many',
    (p: { held: number }) =>
      `Too many streams: this API key holds ${p.held} open, the most one key may; close one first`,
  ),
  TOO_MANY_SIMULATIONS: declare(
    'too-many',
    (p: { limit: number; retryAfter: number }) =>
      `This API key has ${p.limit} parlay simulations under way (SGP_SIMULATIONS_PER_KEY), the most it may have at once; retry in ${p.retryAfter} s (parlays whose simulations are ready are priced meanwhile)`,
  ),
  SIMULATION_DEADLINE: declare(
    'unavailable',
    (p: { retryAfter: number }) =>
      `The parlay's simulation is still being drawn after the server's deadline (SGP_DEADLINE_MS); it will be ready shortly: retry in ${p.retryAfter} s`,
  ),

  // What is read.
  EVENT_NOT_FOUND: declare('not-found', (p: { eventId: string }) => `Event "${p.eventId}" not found`),
  EVENT_OF_OTHER_SPORT: declare(
    'invalid',
    (p: { eventId: string; belongs: { name: string; key: string }; wanted: { name: string; key: string } }) =>
      `Event "${p.eventId}" belongs to ${competitionName(p.belongs)}, not ${p.wanted.name} (${p.wanted.key})`,
  ),
  EVENT_NOT_OF_SPORT: declare(
    'not-found',
    (p: { eventId: string; belongs: { name: string; key: string }; wanted: { name: string; key: string } }) =>
      `Event "${p.eventId}" belongs to ${competitionName(p.belongs)}, not ${p.wanted.name} (${p.wanted.key})`,
  ),
  ODD_TYPE_NOT_OFFERED: declare(
    'not-found',
    (p: { competition: { name: string; key: string }; oddTypes: readonly string[]; offered: readonly string[] }) =>
      `${competitionName(p.competition)} does not offer ${p.oddTypes.join(', ')} odds; it offers ${p.offered.join(', ')}`,
  ),
  OUTCOME_NOT_FOUND: declare(
    'not-found',
    (p: { outcomeId: string; eventId: string }) => `Outcome "${p.outcomeId}" not found in event "${p.eventId}"`,
  ),
  HEAT_NOT_FOUND: declare(
    'not-found',
    (p: { heatId: string; eventId: string }) => `Heat "${p.heatId}" not found in event "${p.eventId}"`,
  ),
  PARTICIPANTS_UNAVAILABLE: declare(
    'invalid',
    (p: { eventId: string; competition: { name: string; key: string } }) =>
      `Participants are not available for event "${p.eventId}": ${competitionName(p.competition)} publishes teams; see the event's teams`,
  ),
  TOUR_YEAR_NOT_FOUND: declare(
    'not-found',
    (p: { tourYearId: string }) => `3ICE tour year "${p.tourYearId}" not found`,
  ),
  JAI_ALAI_CARD_NOT_FOUND: declare('not-found', (p: { cardId: string }) => `Jai Alai card "${p.cardId}" not found`),
  FUTURES_NOT_FOUND: declare(
    'not-found',
    (p: { futureType: string; tourId: string; sportType: string }) =>
      `No ${p.futureType} futures odds for tour "${p.tourId}" of ${p.sportType}`,
  ),
  EXACTA_ATHLETES_INVALID: declare(
    'invalid',
    () => 'athleteIds must name 2 to 4 different athletes, as many as exactasType when it is given',
  ),
  EXACTA_ATHLETES_NOT_IN_FIELD: declare(
    'invalid',
    (p: { athleteIds: readonly string[]; oddType: string | undefined }) =>
      `athleteIds: ${p.athleteIds.join(', ')} are not all in the field of any ${p.oddType} market of this event`,
  ),
  EVENT_ID_INVALID: declare(
    'invalid',
    (p: { id: string }) => `eventId "${p.id}" is not an event id (<sport_key>:<uuid> or a bare uuid)`,
  ),
  LAST_EVENT_ID_CONFLICT: declare('invalid', () => 'Last-Event-ID and lastEventId disagree; send one of them'),
  CHANGE_ID_AHEAD: declare(
    'invalid',
    (p: { after: number; last: number }) =>
      `after ${p.after} is ahead of the change log: its last change id is ${p.last}`,
  ),
  CHANGES_GONE: declare(
    'gone',
    (p: { after: number; last: number }) =>
      `Changes after ${p.after} are no longer in the change log: re-read the documents you show, then follow the changes after ${p.last}`,
  ),

  // Same game parlays (legs[].code in the metadata of PARLAY_LEGS_REFUSED keeps its own codes).
  PARLAY_BODY_INVALID: declare('unprocessable', () => 'The body must be an array of odd ids, or { "oddIds": [...] }'),
  PARLAY_TOO_FEW_LEGS: declare('unprocessable', () => 'A parlay needs at least two legs'),
  PARLAY_NOT_OFFERED: declare(
    'invalid',
    (p: { competition: { name: string; key: string } }) =>
      `Same game parlays are not offered for ${competitionName(p.competition)} events`,
  ),
  PARLAY_LEGS_REFUSED: declare('unprocessable', (p: { sentences: readonly string[] }) => p.sentences.join('; ')),

  // What the operator writes.
  FEED_ITEM_INVALID: declare(
    'invalid',
    (p: { where: string; problem: string; more: number }) =>
      `Invalid feed: ${p.where} ${p.problem}${p.more > 0 ? ` (and ${p.more} more problem${p.more > 1 ? 's' : ''})` : ''}; nothing was written`,
    'admin',
  ),
  MARKETS_OVERROUND_INVALID: declare('invalid', () => 'overround must be from 0 to 0.5', 'admin'),
  MARKETS_MARGIN_METHOD_INVALID: declare(
    'invalid',
    (p: { methods: readonly string[] }) => `marginMethod must be one of ${p.methods.join(', ')}`,
    'admin',
  ),
  MARKETS_RATINGS_TOO_FAR_APART: declare(
    'invalid',
    () => 'These ratings are too far apart to price: every athlete needs a win chance above zero',
    'admin',
  ),
  MARKETS_MATCH_INPUT_FOR_FIELD: declare(
    'invalid',
    (p: { competition: { name: string; key: string } }) =>
      `homeWin and expectedTotal price team matches; ${competitionName(p.competition)} takes winProbabilities or ratings`,
    'admin',
  ),
  MARKETS_FIELD_INPUT_REQUIRED: declare(
    'invalid',
    () => 'Give exactly one of winProbabilities and ratings (athlete id to number)',
    'admin',
  ),
  MARKETS_WIN_PROBABILITIES_INVALID: declare(
    'invalid',
    () => 'Win probabilities must be positive numbers, and ratings finite, for at least two athletes',
    'admin',
  ),
  MARKETS_SHAPE_INVALID: declare(
    'invalid',
    (p: { max: number }) => `shape must be a whole number from 1 to ${p.max}`,
    'admin',
  ),
  MARKETS_ODD_TYPES_NOT_OFFERED: declare(
    'invalid',
    (p: { competition: { name: string; key: string }; oddTypes: readonly string[] }) =>
      `${competitionName(p.competition)} does not offer ${p.oddTypes.join(', ')}`,
    'admin',
  ),
  MARKETS_FIELD_TOO_LARGE: declare(
    'invalid',
    (p: { max: number; count: number }) => `At most ${p.max} athletes can be priced together, got ${p.count}`,
    'admin',
  ),
  MARKETS_UNKNOWN_ATHLETES: declare(
    'invalid',
    (p: { athleteIds: readonly string[] }) =>
      `Unknown athlete${p.athleteIds.length > 1 ? 's' : ''}: ${p.athleteIds.slice(0, 10).join(', ')}`,
    'admin',
  ),
  MARKETS_FIELD_INPUT_FOR_MATCH: declare(
    'invalid',
    (p: { competition: { name: string; key: string } }) =>
      `${competitionName(p.competition)} matches are priced from homeWin (and expectedTotal), not per-athlete winProbabilities or ratings`,
    'admin',
  ),
  MARKETS_HOME_WIN_INVALID: declare('invalid', () => 'homeWin must be a probability strictly between 0 and 1', 'admin'),
  MARKETS_EXPECTED_TOTAL_REQUIRED: declare(
    'invalid',
    (p: { competition: { name: string; key: string } }) =>
      `${competitionName(p.competition)} matches also need expectedTotal, the expected match total (above 1, at most 200)`,
    'admin',
  ),
  MARKETS_TARGETS_UNREACHABLE: declare(
    'invalid',
    (p: { reason: string }) => `The score model cannot reach these targets: ${p.reason}`,
    'admin',
  ),

  // API keys, as the CLI manages them.
  UNKNOWN_COMPETITION: declare(
    'invalid',
    (p: { keys: readonly string[]; known: readonly string[] }) =>
      `Unknown competition key${p.keys.length > 1 ? 's' : ''}: ${p.keys.join(', ')} (known: ${p.known.join(', ')})`,
    'admin',
  ),
  API_KEY_TOO_SHORT: declare('invalid', () => 'An API key must be at least 16 characters long', 'admin'),
  API_KEY_NOT_FOUND: declare(
    'not-found',
    (p: { idOrPrefix: string }) => `No active API key has an id or prefix "${p.idOrPrefix}"`,
    'admin',
  ),
  API_KEY_AMBIGUOUS: declare(
    'invalid',
    (p: { idOrPrefix: string; candidates: readonly string[] }) =>
      `"${p.idOrPrefix}" names ${p.candidates.length} active keys: ${p.candidates.join(', ')}; give more of the id`,
    'admin',
  ),
  KEY_LIMIT_INVALID: declare(
    'invalid',
    (p: { name: string; value: unknown }) => `${p.name} must be a whole number, 0 for no limit, got ${p.value}`,
    'admin',
  ),
  PLAN_NOT_FOUND: declare('not-found', (p: { plan: string }) => `No plan has the id or name "${p.plan}"`, 'admin'),
  PLAN_NAME_MISSING: declare('invalid', () => 'A plan needs a name', 'admin'),
  PLAN_NAME_TAKEN: declare('conflict', (p: { name: string }) => `A plan is already named "${p.name}"`, 'admin'),
  KEY_LIMIT_SETTING_INVALID: declare(
    'invalid',
    (p: { name: string; value: string }) =>
      `${p.name} must be a whole number (0 or "unlimited" for no limit, "default" for the server's setting), got "${p.value}"`,
    'cli',
  ),

  // The server itself.
  STORE_UNAVAILABLE: declare('unavailable', (p: { dialect?: string }) =>
    p.dialect === undefined
      ? 'Service temporarily unavailable: the data store cannot be reached'
      : `The ${p.dialect} store cannot be reached`,
  ),
  STORE_CORRUPT: declare(
    'unavailable',
    (p: { dialect: string; problem: string }) =>
      `The ${p.dialect} store is corrupt (${p.problem}): repair or restore it`,
  ),
  INTERNAL_ERROR: declare('internal', () => 'Internal server error'),
  CONFIG_INVALID: declare(
    'startup',
    (p: { problems: readonly string[] }) => `Invalid configuration:\n${p.problems.map((x) => `  - ${x}`).join('\n')}`,
    'cli',
  ),
  STORE_CANNOT_OPEN: declare(
    'startup',
    (p: { location: string; reason: string }) => `cannot open the store at ${p.location}: ${p.reason}`,
    'cli',
  ),
  LISTEN_FAILED: declare('startup', (p: { message: string }) => p.message, 'cli'),
} as const;

export type ErrorCode = keyof typeof ERRORS;
type ParamsOf<Code extends ErrorCode> = Parameters<(typeof ERRORS)[Code]['message']>;
type Metadata = Record<string, unknown>;
/** A code's arguments: its template's parameters when it has any, then the metadata. */
type FailArgs<Code extends ErrorCode> =
  ParamsOf<Code> extends [] ? [metadata?: Metadata] : [params: ParamsOf<Code>[0], metadata?: Metadata];

/** A failure of the catalogue: its code, the message its template makes, and details for the body's metadata. */
export class CodedError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly metadata: Metadata;

  constructor(code: ErrorCode, message: string, metadata: Metadata = {}) {
    super(message);
    this.name = 'CodedError';
    this.code = code;
    this.kind = ERRORS[code].kind;
    this.metadata = metadata;
  }
}

/**
 * The error `code` names, its message made from the template's parameters (when it has any), with
 * `metadata` for the error body: `throw fail('EVENT_NOT_FOUND', { eventId }, { eventId })`.
 */
export function fail<Code extends ErrorCode>(code: Code, ...args: FailArgs<Code>): CodedError {
  const template = ERRORS[code].message as (params?: unknown) => string;
  const [params, metadata] = template.length === 0 ? [undefined, args[0]] : args;
  return new CodedError(code, template(params), (metadata as Metadata | undefined) ?? {});
}

/** Whether an error is one of the catalogue's. */
export const isCoded = (error: unknown): error is CodedError => error instanceof CodedError;
