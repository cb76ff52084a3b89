import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { compileOnly } from '../compile-only.ts';
import type { StoreDialect } from '../connection.ts';
import type { FactTable } from '../schema.ts';

/**
 * The feed facts writer's statements (feed-facts-repository.ts), built with Kysely's builder on
 * compile-only instances once per store kind and shape (table, columns, row count) and run with each
 * chunk's values on the store's own connection, whose SQLite statements stay prepared.
 */

/**
 * The fact tables as the writer sees them: any table, by column name. Statements are built on
 * compile-only Kysely instances of this shape.
 */
type FactColumns = Record<FactTable, { id: string; updatedAt: string } & Record<string, unknown>>;

const COMPILERS: Record<StoreDialect, Kysely<FactColumns>> = {
  sqlite: compileOnly<FactColumns>('sqlite'),
  postgres: compileOnly<FactColumns>('postgres'),
};

/** A statement's text, built once per store kind and shape, run with each chunk's values. */
const statements = new Map<string, string>();

function statementText(key: string, build: () => CompiledQuery, parameters: number): string {
  let text = statements.get(key);
  if (text === undefined) {
    const compiled = build();
    // The values are the only parameters, row after row in column order: each chunk supplies its own.
    if (compiled.parameters.length !== parameters) throw new Error(`feed writer: ${key} has unexpected parameters`);
    text = compiled.sql;
    statements.set(key, text);
  }
  return text;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export interface Shape {
  dialect: StoreDialect;
  table: FactTable;
  /** Columns written, in parameter order. */
  columns: string[];
  contentUpdatedAt: boolean;
}

/** INSERT of `rows` rows; `upsert`: ON CONFLICT (id) DO UPDATE of newer, different rows, returning their ids. */
export function writeStatement(shape: Shape, rows: number, upsert: boolean): string {
  const { dialect, table, columns } = shape;
  const key = `${dialect} ${table} ${columns.join(',')} ${rows} ${upsert ? 'upsert' : 'insert'}`;
  return statementText(
    key,
    () => {
      const placeholder = Object.fromEntries(columns.map((c) => [c, null]));
      const insert = COMPILERS[dialect].insertInto(table).values(Array.from({ length: rows }, () => placeholder));
      return upsert
        ? insert
            .onConflict((oc) => conditionalUpdate(oc, shape))
            .returning('id')
            .compile()
        : insert.compile();
    },
    rows * columns.length,
  );
}

type OnConflict = Parameters<Parameters<ReturnType<Kysely<FactColumns>['insertInto']>['onConflict']>[0]>[0];

/** Updates a stored row only when the incoming one is not older and differs in some column. */
function conditionalUpdate(oc: OnConflict, { table, columns, contentUpdatedAt }: Shape) {
  const updatable = columns.filter((c) => c !== 'id' && c !== 'contentUpdatedAt' && c !== 'createdAt');
  const content = updatable.filter((c) => c !== 'updatedAt');
  const stored = (column: string) => sql.ref(`${table}.${snake(column)}`);
  return oc
    .column('id')
    .doUpdateSet((eb) => {
      const set: Record<string, unknown> = {};
      for (const column of updatable) set[column] = eb.ref(`excluded.${column}`);
      if (contentUpdatedAt) {
        const before = stored('contentUpdatedAt');
        set.contentUpdatedAt = sql`case when ${before} > excluded.updated_at then ${before} else excluded.updated_at end`;
      }
      return set;
    })
    .where(({ and, or }) =>
      and([
        sql<boolean>`${stored('updatedAt')} <= excluded.updated_at`,
        or(content.map((c) => sql<boolean>`${stored(c)} is distinct from ${sql.ref(`excluded.${snake(c)}`)}`)),
      ]),
    );
}

/** SELECT of these columns of `ids` ids' rows: its parameters are the ids. */
export function storedRowsStatement(
  dialect: StoreDialect,
  table: FactTable,
  columns: readonly ('id' | 'referenceId' | 'updatedAt')[],
  ids: string[],
): string {
  return statementText(
    `${dialect} ${table} ${columns.join(',')} by id ${ids.length}`,
    () => COMPILERS[dialect].selectFrom(table).select(columns).where('id', 'in', ids).compile(),
    ids.length,
  );
}

/** SELECT of the rows holding these reference ids: its parameters are the reference ids. */
export function holdersStatement(dialect: StoreDialect, table: FactTable, referenceIds: number[]): string {
  return statementText(
    `${dialect} ${table} holders ${referenceIds.length}`,
    () =>
      COMPILERS[dialect]
        .selectFrom(table)
        .select(['id', 'referenceId'])
        .where('referenceId', 'in', referenceIds)
        .compile(),
    referenceIds.length,
  );
}

/** The table's largest reference id (0 when it has none), as `max`. */
export function maxReferenceIdQuery(dialect: StoreDialect, table: FactTable): CompiledQuery<{ max: unknown }> {
  return COMPILERS[dialect]
    .selectFrom(table)
    .select(sql<number>`coalesce(max(reference_id), 0)`.as('max'))
    .compile() as CompiledQuery<{ max: unknown }>;
}
