import { type Static, type TSchema, Type } from 'typebox';
import { COMPETITION_KEYS } from '../../domain/competitions.ts';

/**
 * Schema building blocks shared by every route. Nullable primitives use JSON Schema type arrays
 * (`["string", "null"]`), which OpenAPI 3.1 accepts and fast-json-stringify serialises quickly.
 */

export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string }).type;
  if (!type) return Type.Union([schema, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 date-time (UTC)' });

export function StringEnum<T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const CompetitionKey = Type.Unsafe<string>({
  type: 'string',
  enum: [...COMPETITION_KEYS],
  description: 'competition key',
});

/** The specification's error body (section 7); every non-2xx answer uses it. */
export const ServerErrorResponse = Type.Object(
  {
    message: Type.String(),
    statusCode: Type.Integer({ description: 'the HTTP status code' }),
    timestamp: Timestamp,
    metadata: Type.Object(
      {},
      { additionalProperties: true, description: 'details: the offending parameter, item or field' },
    ),
    stack: Type.String({ description: 'empty unless the server runs with DEBUG_ERRORS=on' }),
  },
  { $id: 'ServerErrorResponse', title: 'ServerErrorResponse' },
);

const errorRef = Type.Ref('ServerErrorResponse');

/** Error responses of a route, by status code, each with the common error body. */
export function errorResponses(descriptions: Record<number, string>) {
  const out: Record<number, TSchema> = {};
  for (const [code, description] of Object.entries(descriptions))
    out[Number(code)] = { ...errorRef, description } as TSchema;
  return out;
}

/** Errors every public route can answer. */
export const PUBLIC_ERRORS = {
  400: 'invalid parameter',
  401: 'missing or unknown API key',
  403: 'the API key does not give access to this competition',
} as const;
