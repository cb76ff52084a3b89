/** Ids read per query by the lookups that take any number of them (parameters, well under both stores' limits). */
export const CHUNK = 400;

/**
 * A list for `in`: an empty one as a value no row holds, so that it matches nothing on both stores
 * (PostgreSQL refuses an empty `in ()`).
 */
export function anyOf<T extends string>(values: readonly T[]): T[] {
  return values.length ? [...values] : ['' as T];
}

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows read by id, a chunk of ids per query, kept by id as `value` makes them. */
export async function readById<R extends { id: string }, V>(
  ids: readonly string[],
  read: (part: string[]) => Promise<R[]>,
  value: (row: R) => V,
): Promise<Map<string, V>> {
  const found = new Map<string, V>();
  for (const part of chunks(ids)) for (const row of await read(part)) found.set(row.id, value(row));
  return found;
}
