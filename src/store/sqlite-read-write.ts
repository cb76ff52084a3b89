import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { WalCheckpointer } from './wal-checkpointer.ts';

/**
 * Kysely's SQLite dialect over two connections to one WAL file. A statement that only reads, outside a
 * transaction, runs on the reader connection and never waits for the writer, whose transaction (a feed
 * batch) stays open across turns of the event loop; it sees the data as last committed. Transactions
 * and every other statement take the writer connection, one at a time, as Kysely's own SQLite driver
 * does with its single connection.
 */
export function readWriteSqliteDialect(
  writer: SqliteDatabase,
  reader: SqliteDatabase,
  checkpointer?: WalCheckpointer,
): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReadWriteDriver(writer, reader, checkpointer),
    createQueryCompiler: (): QueryCompiler => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
}

/** Runs one compiled statement on a connection, as Kysely's SQLite driver does. */
function run(database: SqliteDatabase, { sql, parameters }: CompiledQuery): Promise<QueryResult<unknown>> {
  const statement = database.prepare(sql);
  if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as unknown[] });
  const { changes, lastInsertRowid } = statement.run(parameters);
  return Promise.resolve({
    numAffectedRows: BigInt(changes),
    insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid),
    rows: [],
  });
}

/** A query that cannot write: a SELECT, or raw SQL that is one (a health check's `select 1`). */
const readsOnly = ({ query, sql }: CompiledQuery) =>
  SelectQueryNode.is(query) || (RawNode.is(query) && /^\s*select\b/i.test(sql));

/** Queues users of the writer connection. */
class Turns {
  #last: Promise<void> = Promise.resolve();

  /** Resolves when it is the caller's turn, with the function that ends it. */
  async take(): Promise<() => void> {
    let end: () => void = () => {};
    const previous = this.#last;
    this.#last = new Promise((resolve) => (end = resolve));
    await previous;
    return end;
  }
}

class ReadWriteDriver implements Driver {
  readonly turns = new Turns();

  readonly writer: SqliteDatabase;
  readonly reader: SqliteDatabase;
  readonly checkpointer?: WalCheckpointer | undefined;

  constructor(writer: SqliteDatabase, reader: SqliteDatabase, checkpointer?: WalCheckpointer) {
    this.writer = writer;
    this.reader = reader;
    this.checkpointer = checkpointer;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Session(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Session).holdWriter();
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.checkpointer?.wrote();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Session).releaseWriter();
  }

  async destroy(): Promise<void> {
    await this.checkpointer?.close();
    this.reader.close();
    this.writer.close();
  }
}

/** One acquisition of the dialect's connection: the reader for reads, the writer held for a transaction. */
class Session implements DatabaseConnection {
  #endTurn: (() => void) | null = null;

  private readonly driver: ReadWriteDriver;

  constructor(driver: ReadWriteDriver) {
    this.driver = driver;
  }

  async holdWriter(): Promise<void> {
    this.#endTurn = await this.driver.turns.take();
  }

  releaseWriter(): void {
    this.#endTurn?.();
    this.#endTurn = null;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#endTurn) return (await run(this.driver.writer, query)) as QueryResult<R>;
    if (readsOnly(query)) return (await run(this.driver.reader, query)) as QueryResult<R>;
    const endTurn = await this.driver.turns.take();
    try {
      return (await run(this.driver.writer, query)) as QueryResult<R>;
    } finally {
      endTurn();
      this.driver.checkpointer?.wrote();
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered, as by Kysely's SQLite driver for writes.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this SQLite driver');
  }
}
