import { ERRORS, type ErrorCode, type ErrorKind } from '../domain/errors.ts';

/**
 * The HTTP status of each kind of failure in the error catalogue (domain/errors.ts): the domain says
 * what went wrong, this layer what HTTP calls it. `refused` is the web framework's own refusal, which
 * keeps the status the framework chose; `startup` never reaches a client.
 */
export const KIND_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  timeout: 408,
  gone: 410,
  'too-large': 413,
  'uri-too-long': 414,
  'unsupported-media': 415,
  unprocessable: 422,
  'too-many': 429,
  'headers-too-large': 431,
  refused: 400,
  internal: 500,
  unavailable: 503,
  startup: 500,
};

/** The status an error of this code is answered with. */
export const statusOf = (code: ErrorCode): number => KIND_STATUS[ERRORS[code].kind];

/** The codes answered with `status` that `among` keeps, in the catalogue's order: the OpenAPI document lists them. */
export function codesOfStatus(status: number, among: (code: ErrorCode) => boolean): ErrorCode[] {
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => statusOf(code) === status && among(code));
}

/** The routes of the document by who may call them: the public API, the admin API, or anyone (health, metrics). */
export type RouteKind = 'public' | 'admin' | 'open';

/**
 * Codes any route of a kind can answer, whatever it does: a bad parameter, the key, its limits, the
 * store. Every public route documents a 403 (schemas/common.ts PUBLIC_ERRORS), so COMPETITION_FORBIDDEN
 * is listed for each, though only the routes that filter by competition give it: the others answer an
 * id outside the key's competitions as an unknown one.
 */
export const KIND_CODES: Record<RouteKind, readonly ErrorCode[]> = {
  public: [
    'INVALID_PARAMETER',
    'API_KEY_MISSING',
    'API_KEY_INVALID',
    'COMPETITION_FORBIDDEN',
    'RATE_LIMITED',
    'QUOTA_EXCEEDED',
    'INTERNAL_ERROR',
    'STORE_UNAVAILABLE',
  ],
  admin: ['INVALID_PARAMETER', 'ADMIN_API_CLOSED', 'ADMIN_API_KEY_INVALID', 'INTERNAL_ERROR', 'STORE_UNAVAILABLE'],
  open: ['INTERNAL_ERROR'],
};

/** Codes of a request body's reading (input-guard.ts, plugins/errors.ts), which every method but GET and HEAD has. */
export const BODY_CODES: readonly ErrorCode[] = [
  'BODY_EMPTY',
  'BODY_NOT_JSON',
  'BODY_NOT_UTF8',
  'BODY_TOO_DEEP',
  'BODY_PROTOTYPE_KEY',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_CHARSET',
];

/**
 * Every code a route can answer: those it raises itself (`own`, declared beside its schemas), its
 * kind's, and its body's reading's when its method has one (INVALID_BODY too when a schema checks it).
 */
export function codesOfRoute(route: {
  kind: RouteKind;
  own: readonly ErrorCode[];
  method: string;
  bodySchema: boolean;
}): Set<ErrorCode> {
  const codes = new Set([...KIND_CODES[route.kind], ...route.own]);
  if (!['GET', 'HEAD'].includes(route.method.toUpperCase())) for (const code of BODY_CODES) codes.add(code);
  if (route.bodySchema) codes.add('INVALID_BODY');
  return codes;
}
