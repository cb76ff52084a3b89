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

/** The codes answered with `status` (of the given scopes), in the catalogue's order: the OpenAPI document lists them. */
export function codesOfStatus(status: number, scopes: readonly string[] = ['public']): ErrorCode[] {
  return (Object.keys(ERRORS) as ErrorCode[]).filter(
    (code) => statusOf(code) === status && scopes.includes(ERRORS[code].scope),
  );
}
