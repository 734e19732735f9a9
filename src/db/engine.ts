/**
 * The one way the code reaches a database, whichever engine keeps it: the subset of a
 * synchronous driver that the repositories, the write path and the sync use. better-sqlite3's
 * database satisfies it as it is (every store, and a hub on a SQLite file); a hub on PostgreSQL
 * gets the same calls from src/db/postgres/. Only the files under src/db/ import a driver.
 *
 * Values cross as JavaScript numbers, strings, null and
 * Buffers: integers come back as numbers and text compares byte by byte on both engines.
 */
export interface RunResult {
  /** Rows the statement inserted, updated or deleted. */
  changes: number;
}

export interface PreparedStatement<Params extends unknown[], Row> {
  run(...params: Params): RunResult;
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  iterate(...params: Params): IterableIterator<Row>;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
}

/**
 * A tuple of positional parameters, or the object of named ones. Any value but null, as
 * better-sqlite3 types its own (not `object`), so that its database is a `Db` with no adapter
 * between them.
 */
export type BindParameters = unknown[] | NonNullable<unknown>;

/** A statement of positional parameters (a tuple), or of named ones (`@name`, one object). */
export type Statement<Params extends BindParameters = unknown[], Row = unknown> = Params extends unknown[]
  ? PreparedStatement<Params, Row>
  : PreparedStatement<[Params], Row>;

export interface Db {
  /** Positional parameters (`?`) as a tuple, or named ones (`@name`) as one object. */
  prepare<Params extends BindParameters = unknown[], Row = unknown>(sql: string): Statement<Params, Row>;
  /**
   * `run` in one transaction: committed when it returns, rolled back when it throws. Called
   * inside another transaction, it runs as a savepoint of that one.
   */
  transaction<Args extends unknown[], Result>(run: (...args: Args) => Result): (...args: Args) => Result;
  /** Runs statements separated by semicolons, without parameters. */
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
  readonly open: boolean;
  /** A read-only connection: a store's event loop beside its writer, or a hub on a standby. */
  readonly readonly: boolean;
  close(): unknown;
}
