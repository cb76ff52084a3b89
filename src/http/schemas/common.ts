import { type Static, type TUnsafe, Type } from 'typebox';
import type { ErrorCode } from '../../domain/errors.ts';
import { Ref, Timestamp } from '../../shapes/common.ts';
import type { Tag } from '../tags.ts';

/** The specification's error body (section 7); every non-2xx answer uses it. */
export const ServerErrorResponse = Type.Object(
  {
    message: Type.String(),
    statusCode: Type.Integer({ description: 'the HTTP status code' }),
    code: Type.String({
      description:
        "what went wrong, a stable code of the server's error catalogue (EVENT_NOT_FOUND, RATE_LIMITED, ...): each route's responses list theirs",
    }),
    timestamp: Timestamp,
    metadata: Type.Object(
      {},
      { additionalProperties: true, description: 'details: the offending parameter, item or field' },
    ),
    stack: Type.String({ description: 'empty unless the server runs with DEBUG_ERRORS=on' }),
  },
  { $id: 'ServerErrorResponse', title: 'ServerErrorResponse' },
);
export type ServerErrorResponse = Static<typeof ServerErrorResponse>;

/** Error responses of a route, by status code, each with the common error body. */
export function errorResponses<Code extends number>(
  descriptions: Record<Code, string>,
): Record<Code, TUnsafe<ServerErrorResponse>> {
  const out = {} as Record<Code, TUnsafe<ServerErrorResponse>>;
  for (const [code, description] of Object.entries<string>(descriptions))
    out[Number(code) as Code] = Ref(ServerErrorResponse, { description });
  return out;
}

/** Errors every public route can answer. */
export const PUBLIC_ERRORS = {
  400: 'invalid parameter',
  401: 'missing or unknown API key',
  403: 'the API key does not give access to this competition',
} as const;

/** What the OpenAPI document says of one route beside its schemas. */
export interface OperationDocs<Status extends number> {
  tags: readonly Tag[];
  summary: string;
  description?: string;
  security?: ReadonlyArray<Record<string, readonly string[]>>;
  /** Each error status the route documents, with what it means there. */
  errors: Record<Status, string>;
  /**
   * The codes (domain/errors.ts) the route raises itself, beyond those every route of its kind or
   * method can (error-statuses.ts codesOfRoute): each error response lists those of its status.
   */
  codes: readonly ErrorCode[];
}

/**
 * A route's documentation: `docs` for its schema (the codes as the `x-error-codes` extension, which
 * plugins/openapi.ts reads and removes), `errors` for its responses.
 */
export function operation<Status extends number>({ errors, codes, ...docs }: OperationDocs<Status>) {
  return { docs: { ...docs, 'x-error-codes': codes }, errors: errorResponses(errors) };
}
