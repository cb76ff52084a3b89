import { type Static, type TSchema, type TSchemaOptions, type TUnsafe, Type } from 'typebox';
import { COMPETITION_KEYS } from '../domain/competitions.ts';
import { ODDS_FORMATS } from '../domain/odds-format.ts';

/**
 * Building blocks of the public shapes. Nullable primitives use JSON Schema type arrays
 * (`["string", "null"]`), which OpenAPI 3.1 accepts and fast-json-stringify serialises quickly.
 */

export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string }).type;
  if (!type) return Type.Union([schema, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

/**
 * `oddsFormat`: the format of each priced item's `price`. The specification's fields stay as
 * they are; without the parameter no `price` is added.
 */
export const OddsFormatParam = StringEnum(ODDS_FORMATS, {
  description:
    'adds `price` to every priced item, in this format: decimal, american, fractional (from the traditional ladder such as "6/4" or "10/11", else a reduced string), hongkong, malay, indonesian or probability (percent); computed from the exact price the item\'s probability implies and rounded so that it never pays more; the specification\'s fields stay as they are',
});
export const OddsFormatQuery = Type.Object({ oddsFormat: Type.Optional(OddsFormatParam) });

/** A priced item's price in the requested `oddsFormat`: present only when one was asked for. */
export const Price = Type.Optional(
  Type.Unsafe<number | string | null>({
    type: ['number', 'string', 'null'],
    description:
      'the price in the requested oddsFormat (a "p/q" string when fractional, else a number); null when the item has no price (decimal odds of 1 or less)',
  }),
);

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 date-time (UTC)' });

export function StringEnum<T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const CompetitionKey = Type.Unsafe<string>({
  type: 'string',
  enum: [...COMPETITION_KEYS],
  description: 'competition key',
});

/**
 * A `$ref` to a named shape, typed as the shape. The schema is `{ "$ref": "<$id>" }`: the shape is
 * registered once (addSchema) and the OpenAPI document names it under components/schemas, where a
 * shape written inline would be copied into every route by @fastify/swagger. TypeBox's own
 * `Type.Ref(id)` has the static type `unknown`, which would leave handlers unchecked.
 */
export function Ref<T extends TSchema>(shape: T, options: TSchemaOptions = {}): TUnsafe<Static<T>> {
  const id = (shape as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('Ref: a shape referred to by name needs an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(id, options));
}
