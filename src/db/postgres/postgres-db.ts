/**
 * A `Db` on PostgreSQL: one libpq connection, called synchronously, so the code that runs on
 * SQLite runs here unchanged; it blocks the thread it runs on for each round trip, so it is
 * opened on a thread that may wait (a hub's writer or reader threads), never on the event loop
 * that answers calls.
 *
 * Each distinct SQL text is prepared on the server once per connection, under a name of its
 * own, and kept up to `MAX_PREPARED` texts (the least used are deallocated). `transaction()`
 * behaves as better-sqlite3's: BEGIN and COMMIT, ROLLBACK when the function throws, and a
 * savepoint when called inside another transaction.
 *
 * A connection the server dropped (a restart, a failover to the standby, an administrator's
 * kill) fails the statement under way with `databaseUnreachable` (503, Retry-After), and the
 * next statement connects again: libpq follows the URL's hosts and `target_session_attrs` to
 * the primary. `onConnect` runs after each connection, first and later ones.
 */
import { databaseUnreachable } from '../../core/errors.js';
import type { BindParameters, Db, PreparedStatement, RunResult, Statement } from '../engine.js';
import { newConnection, type Libpq } from './driver.js';
import { numberPlaceholders, type NumberedSql } from './placeholders.js';
import { decoderOf, encodeParameter, type Decode } from './values.js';

/** Statements a connection keeps prepared: more than the texts a hub's code writes, fewer than a leak would make. */
const MAX_PREPARED = 2_000;

/** A statement PostgreSQL refused: its SQLSTATE in `code` (23505 a unique key, 23503 a foreign key). */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly constraint: string | undefined,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

interface Prepared {
  name: string;
  sql: NumberedSql;
}

export interface PostgresOptions {
  /** A connection that only reads: a store's reads on a hot standby, a reader thread. */
  readonly?: boolean;
  /** Statements of the session each connection runs first (a lock the process holds). */
  onConnect?: (db: PostgresDb) => void;
}

/**
 * Connections finished and not yet let go. libpq's npm package closes a connection's socket
 * watcher with `uv_close`, which the event loop completes at the close phase of its turn; were
 * the connection's object collected before that, the loop would finish closing freed memory
 * (Node aborts in `uv__finish_close`). So each is held until a timer set from a timer has run:
 * a later turn of the loop than the one that closes its watcher.
 */
const finishing = new Set<Libpq>();

function letGoLater(pq: Libpq): void {
  finishing.add(pq);
  setTimeout(() => setTimeout(() => finishing.delete(pq), 0).unref(), 0).unref();
}

/** SQLSTATEs of a connection the server ended: class 08, and an administrator's or a shutdown's 57P01–57P03. */
const CONNECTION_LOST = /^(08|57P0[123])/;

export class PostgresDb implements Db {
  readonly readonly: boolean;
  private pq: Libpq;
  private readonly prepared = new Map<string, Prepared>();
  private statementsMade = 0;
  private depth = 0;
  private closed = false;
  private finished = false;
  /** The server dropped the connection: the next statement connects again. */
  private lost = false;

  /** `url`: a libpq connection string or `postgres://` URL; libpq reads the password from its usual places. */
  constructor(
    private readonly url: string,
    private readonly options: PostgresOptions = {},
  ) {
    this.readonly = options.readonly ?? false;
    this.pq = this.connect();
  }

  get open(): boolean {
    return !this.closed;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** One statement serves every tuple or object of parameters: it checks them when it runs (`bound`). */
  prepare<Params extends BindParameters = unknown[], Row = unknown>(sql: string): Statement<Params, Row>;
  prepare(sql: string): PreparedStatement<unknown[], unknown> {
    return new PostgresStatement(this, sql);
  }

  transaction<Args extends unknown[], Result>(run: (...args: Args) => Result): (...args: Args) => Result {
    return (...args: Args) => this.inOneTransaction(() => run(...args));
  }

  exec(sql: string): this {
    this.reconnectIfLost();
    this.pq.exec(sql);
    this.check(sql);
    return this;
  }

  close(): this {
    if (!this.closed) this.finish();
    this.closed = true;
    return this;
  }

  /** Ends libpq's connection once: libpq frees it, and a second finish would free it again. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.pq.finish();
    letGoLater(this.pq);
  }

  private connect(): Libpq {
    const pq = newConnection();
    pq.connectSync(this.url);
    this.pq = pq;
    this.finished = false;
    this.prepared.clear();
    // Notices (a temporary table made again, `IF NOT EXISTS`) are not the log's business.
    this.exec(`SET client_encoding = 'UTF8'; SET client_min_messages = warning; SET default_transaction_read_only = ${this.readonly ? 'on' : 'off'}`);
    this.options.onConnect?.(this);
    return pq;
  }

  /** Outside a transaction only: one the server dropped is over, and its caller was told so. */
  private reconnectIfLost(): void {
    if (!this.lost || this.depth > 0) return;
    if (this.closed) throw databaseUnreachable();
    this.finish();
    try {
      this.lost = false;
      this.connect();
    } catch {
      this.lost = true;
      throw databaseUnreachable();
    }
  }

  /** Runs `sql` with `params` and reads what it answered: its rows (decoded) and how many rows it changed. */
  execute(sql: string, params: unknown[]): { rows: Record<string, unknown>[]; changes: number } {
    this.reconnectIfLost();
    const prepared = this.preparedFor(sql);
    const values = bound(prepared.sql, params);
    this.pq.execPrepared(prepared.name, values);
    this.check(sql);
    return { rows: this.rows(), changes: Number(this.pq.cmdTuples() || 0) };
  }

  private inOneTransaction<T>(work: () => T): T {
    const savepoint = this.depth > 0 ? `loyaltyd_${this.depth}` : undefined;
    this.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
    this.depth += 1;
    try {
      const result = work();
      this.depth -= 1;
      this.exec(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : 'COMMIT');
      return result;
    } catch (error) {
      this.depth -= 1;
      if (!this.lost && !this.closed) this.exec(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}` : 'ROLLBACK');
      throw error;
    }
  }

  private preparedFor(sql: string): Prepared {
    const known = this.prepared.get(sql);
    if (known) {
      this.prepared.delete(sql);
      this.prepared.set(sql, known);
      return known;
    }
    if (this.prepared.size >= MAX_PREPARED) {
      const [oldestSql, oldest] = this.prepared.entries().next().value as [string, Prepared];
      this.prepared.delete(oldestSql);
      this.exec(`DEALLOCATE ${oldest.name}`);
    }
    const made: Prepared = { name: `loyaltyd_s${++this.statementsMade}`, sql: numberPlaceholders(sql) };
    this.pq.prepare(made.name, made.sql.text, made.sql.count);
    this.check(sql);
    this.prepared.set(sql, made);
    return made;
  }

  private rows(): Record<string, unknown>[] {
    const count = this.pq.ntuples();
    const fields = this.pq.nfields();
    if (count === 0 || fields === 0) return [];
    const names: string[] = [];
    const decoders: (Decode | undefined)[] = [];
    for (let column = 0; column < fields; column++) {
      names.push(this.pq.fname(column));
      decoders.push(decoderOf(this.pq.ftype(column)));
    }
    const rows: Record<string, unknown>[] = [];
    for (let row = 0; row < count; row++) {
      const values: Record<string, unknown> = {};
      for (let column = 0; column < fields; column++) {
        const decode = decoders[column];
        values[names[column]!] = this.pq.getisnull(row, column)
          ? null
          : decode
            ? decode(this.pq.getvalue(row, column))
            : this.pq.getvalue(row, column);
      }
      rows.push(values);
    }
    return rows;
  }

  private check(sql: string): void {
    const status = this.pq.resultStatus();
    if (status === 'PGRES_COMMAND_OK' || status === 'PGRES_TUPLES_OK' || status === 'PGRES_EMPTY_QUERY') return;
    const fields = this.pq.resultErrorFields();
    const message = (this.pq.resultErrorMessage() || this.pq.errorMessage()).trim();
    if (!fields?.sqlState || CONNECTION_LOST.test(fields.sqlState) || this.pq.transactionStatus() === 'PQTRANS_UNKNOWN') {
      this.lost = true;
      throw databaseUnreachable();
    }
    throw new PostgresError(`${message} (in: ${sql.replace(/\s+/g, ' ').slice(0, 200)})`, fields?.sqlState ?? 'connection', fields?.constraintName);
  }
}

/** The parameters in the order of their numbers: a tuple as it is, one object by the names. */
function bound(sql: NumberedSql, params: unknown[]): (string | null)[] {
  if (sql.names) {
    const named = params[0] as Record<string, unknown> | undefined;
    if (params.length !== 1 || typeof named !== 'object' || named === null) throw new TypeError('named parameters are bound as one object');
    return sql.names.map((name) => {
      if (!(name in named)) throw new RangeError(`missing named parameter "${name}"`);
      return encodeParameter(named[name]);
    });
  }
  if (params.length !== sql.count) throw new RangeError(`the statement takes ${sql.count} parameters, ${params.length} given`);
  return params.map(encodeParameter);
}

class PostgresStatement implements PreparedStatement<unknown[], unknown> {
  private plucked = false;

  constructor(
    private readonly db: PostgresDb,
    private readonly sql: string,
  ) {}

  run(...params: unknown[]): RunResult {
    return { changes: this.db.execute(this.sql, params).changes };
  }

  get(...params: unknown[]): unknown {
    return this.all(...params)[0];
  }

  all(...params: unknown[]): unknown[] {
    const { rows } = this.db.execute(this.sql, params);
    return this.plucked ? rows.map((row) => Object.values(row)[0]) : rows;
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.all(...params)[Symbol.iterator]();
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }
}
