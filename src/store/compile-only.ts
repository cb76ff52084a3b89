import {
  type Dialect,
  type Driver,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { STORE_PLUGINS, type StoreDialect } from './connection.ts';

/**
 * A Kysely instance that builds a store kind's SQL (its adapter, query compiler and the store's
 * plugins, as the connections in connection.ts have them) over a driver of the caller's: by default
 * Kysely's DummyDriver, which runs nothing (Kysely's recipe for splitting building from running). The
 * feed facts' statements are built on one; the SQL snapshot test records what a repository runs on one.
 */
export function compileOnly<DB>(dialect: StoreDialect, driver: () => Driver = () => new DummyDriver()): Kysely<DB> {
  return new Kysely<DB>({ dialect: storeDialect(dialect, driver), plugins: STORE_PLUGINS });
}

function storeDialect(dialect: StoreDialect, driver: () => Driver): Dialect {
  const postgres = dialect === 'postgres';
  return {
    createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
    createDriver: driver,
    createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  };
}
