/**
 * The one write path for stored data (DESIGN §5). Every insert, update and delete made
 * through a `WriteTransaction` records a change-feed row with a fresh HLC stamp in the same
 * SQLite transaction, and in store mode the API command that caused the write is appended
 * to the outbox in that transaction too, with the row changes it made — so a row, its feed
 * entry and the command that must reach the hub are committed together or not at all.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { decodeHlc, type HybridLogicalClock } from '../core/hlc.js';
import type { IdGenerator } from '../core/ids.js';
import { writtenAtHeadOffice } from '../errors.js';
import type { Db } from './open.js';
import type { Tables } from './tables.js';

export type Mode = 'store' | 'hub';
export type StoredValue = string | number | bigint | null;
export type Row = Record<string, StoredValue>;

export interface Command {
  kind: string;
  payload: unknown;
}

/** One row change, as the change feed and a command carry it. */
export interface RowChange {
  entity: string;
  entity_id: string;
  op: 'insert' | 'update' | 'delete';
  row: Row | null;
  hlc: string;
}

export type TableName = keyof Tables;

/** A row as a write gives it: the table's columns (src/db/tables.ts) but the stamps the write path fills in. */
export type WrittenRow<T extends TableName> = Omit<Tables[T], 'hlc' | 'last_change'>;

export interface WriteTransaction {
  /** Inserts a row; `hlc` and `last_change` are filled in. */
  insert<T extends TableName>(table: T, row: WrittenRow<T>): void;
  /** Changes some columns of an existing row; returns false when no row has that id. */
  update<T extends TableName>(table: T, id: string, changes: Partial<WrittenRow<T>>): boolean;
  remove(table: TableName, id: string): boolean;
}

export class WritePath {
  private readonly statements = new Map<string, Statement>();
  private readonly recordChange: Statement;
  private readonly appendCommand: Statement;
  private readonly commitListeners: (() => void)[] = [];
  private readonly writeListeners: ((changes: readonly RowChange[], tx: WriteTransaction) => void)[] = [];
  /** Row writes made through this path, per table, for tableVersion(). */
  private readonly writesPerTable = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  /** better-sqlite3 builds a transaction wrapper per call to db.transaction(); one is made and reused. */
  private readonly inTransaction: (run: () => unknown) => unknown;
  private joining = false;
  private refusal: ((kind: string, changes: readonly RowChange[]) => string | undefined) | undefined;
  /** Inside reading(): its depth, and data_version as read in it. */
  private readingDepth = 0;
  private readingDataVersion: number | undefined;
  /** Outside transactions: data_version as read in this turn of the event loop (turnTableVersion). */
  private turnDataVersion: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly hlc: HybridLogicalClock,
    private readonly newId: IdGenerator,
    private readonly mode: Mode,
    private readonly clock: Clock,
    /**
     * Whether local writes go to the change feed: on the hub, which serves it, and on a store
     * with no hub, whose recommendation model follows it. A store with a hub serves no feed, so
     * it keeps none (DESIGN §5, "Scopes, compaction, retention").
     */
    private readonly keepsFeed: boolean,
  ) {
    this.inTransaction = db.transaction((run: () => unknown) => run());
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.recordChange = db.prepare('INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, ?, ?, ?)');
    // The generation is read from meta in the same statement: a store restored from a
    // backup moves to a new generation (src/sync/pusher.ts) while it runs.
    this.appendCommand = db.prepare(
      `INSERT INTO outbox (command_id, generation, kind, payload, changes, hlc, created_at)
       VALUES (?, (SELECT value FROM meta WHERE key = 'generation'), ?, ?, ?, ?, ?)`,
    );
  }

  /**
   * Called inside each write's transaction, after its work, with the row changes it made: for
   * data derived from them in the same transaction (the hub's customer states). What the
   * listener writes joins the write's changes but is not shown to the listeners again.
   */
  onWrite(listener: (changes: readonly RowChange[], tx: WriteTransaction) => void): void {
    this.writeListeners.push(listener);
  }

  /** Called after each committed write that queued a command (the sync agent's nudge). */
  onCommandQueued(listener: () => void): void {
    this.commitListeners.push(listener);
  }

  /**
   * A value that moves whenever one of `tables` may have changed, for caches on the hot path that
   * must notice a reload without querying the table: this connection's writes are counted
   * here, and `PRAGMA data_version` moves when another connection commits (a `loyaltyd
   * import` or `program load` run on the folder of a running daemon). A write that rolls
   * back still moves it, which costs the cache one needless reload.
   */
  tableVersion(...tables: string[]): string {
    return this.versionOf(this.snapshotVersion(), tables);
  }

  /**
   * tableVersion for a cache checked before every call, outside the call's transaction (the
   * Bearer sessions): outside a transaction, data_version is read once a turn of the event
   * loop, so the calls a turn serves — several tills' requests under load — share one read
   * transaction instead of taking one each. A commit by another process during the turn is
   * seen from the next, as if it had come after those calls.
   */
  turnTableVersion(...tables: string[]): string {
    if (this.db.inTransaction) return this.tableVersion(...tables);
    if (this.turnDataVersion === undefined) {
      this.turnDataVersion = this.dataVersion.get()!;
      setImmediate(() => (this.turnDataVersion = undefined));
    }
    return this.versionOf(this.turnDataVersion, tables);
  }

  private versionOf(dataVersion: number, tables: string[]): string {
    return `${dataVersion}:${tables.map((table) => this.writesPerTable.get(table) ?? 0).join(':')}`;
  }

  /**
   * Runs a handler's reads in one read transaction: they see one snapshot and take SQLite's
   * locks once instead of once per statement (DESIGN §7: ~10 % faster on the cash desk's
   * calls), and the caches they ask for a tableVersion share one read of data_version, which
   * cannot move for a snapshot already taken.
   */
  reading<T>(work: () => T): T {
    return this.inTransaction(() => {
      this.readingDepth += 1;
      try {
        return work();
      } finally {
        this.readingDepth -= 1;
        if (this.readingDepth === 0) this.readingDataVersion = undefined;
      }
    }) as T;
  }

  private snapshotVersion(): number {
    if (this.readingDataVersion !== undefined) return this.readingDataVersion;
    const version = this.dataVersion.get()!;
    if (this.readingDepth > 0) this.readingDataVersion = version;
    return version;
  }

  /**
   * Runs `work` in one SQLite transaction. `command` is the API write being applied; a
   * store queues it for the hub with the row changes it made, the hub (the system of
   * record) does not.
   */
  /**
   * On a store with a hub: `check` answers why the hub would refuse a command writing these
   * changes, and such a write is refused before it is queued (src/sync/command-policy.ts).
   */
  refuseCommands(check: (kind: string, changes: readonly RowChange[]) => string | undefined): void {
    this.refusal = check;
  }

  write<T>(command: Command | null, work: (tx: WriteTransaction) => T): T {
    const queued = command !== null && this.mode === 'store';
    const run = this.joining && this.db.inTransaction ? (body: () => unknown) => body() : this.inTransaction;
    const result = run(() => {
      const changes: RowChange[] = [];
      const tx = this.transaction(changes);
      const value = work(tx);
      const made = [...changes];
      for (const listener of this.writeListeners) listener(made, tx);
      const refused = queued ? this.refusal?.(command.kind, made) : undefined;
      if (refused) throw writtenAtHeadOffice(refused);
      if (queued) {
        this.appendCommand.run(
          this.newId(),
          command.kind,
          JSON.stringify(command.payload),
          JSON.stringify(changes),
          this.hlc.now(),
          new Date(this.clock()).toISOString(),
        );
      }
      return value;
    }) as T;
    if (queued) for (const listener of this.commitListeners) listener();
    return result;
  }

  /**
   * Runs `load` with its writes joining the surrounding transaction instead of each opening
   * a savepoint: SQLite copies every page a savepoint first touches into a sub-journal, which
   * doubles the cost of a bulk load. A write that fails half-way then leaves its first rows
   * behind, so the caller must roll the whole transaction back on any failure.
   */
  joiningTransaction<T>(load: () => T): T {
    this.joining = true;
    try {
      return load();
    } finally {
      this.joining = false;
    }
  }

  /**
   * Applies a change made on another node, keeping its stamp: last writer wins by HLC per
   * row, so applying the same change twice, or an older one after a newer, changes nothing.
   * Must run inside a transaction. Returns whether the row changed. A row of the change's own
   * stamp keeps its values, unless `sameStamp` yields: a change kept for after an upgrade
   * comes back whole to a row that took its known columns (src/sync/deferred-changes.ts).
   */
  applyReplicated(change: RowChange, recordInFeed: boolean, sameStamp: 'keeps' | 'yields' = 'keeps'): boolean {
    const older = sameStamp === 'keeps' ? '<' : '<=';
    this.hlc.observe(change.hlc);
    this.wrote(change.entity);
    let changed: boolean;
    if (change.op === 'delete') {
      changed = this.statement(`DELETE FROM ${change.entity} WHERE id = ? AND hlc ${older} ?`).run(change.entity_id, change.hlc).changes > 0;
    } else {
      const row = change.row ?? {};
      changed = this.lastWriterWinsUpsert(change.entity, Object.keys(row), older).run(...Object.values(row)).changes > 0;
    }
    if (changed && recordInFeed) {
      this.recordChange.run(change.entity, change.entity_id, change.op, change.row ? JSON.stringify(change.row) : null, change.hlc);
    }
    return changed;
  }

  /**
   * Loads rows of one table from the hub's snapshot with applyReplicated's last-writer-wins
   * upsert (a resumed bootstrap may meet rows it already holds). A snapshot sends every row of
   * a table with the same columns, so the statement is built once per batch rather than per
   * row, which is most of what a million-row bootstrap would otherwise spend. Must run inside
   * a transaction.
   */
  loadSnapshotRows(entity: string, rows: Row[]): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const upsert = this.lastWriterWinsUpsert(entity, columns, '<');
    this.wrote(entity);
    // Stamps compare as text (src/core/hlc.ts): the clock observes the batch's newest once.
    let newest = '';
    for (const row of rows) {
      const stamp = String(row.hlc);
      if (stamp > newest) newest = stamp;
      upsert.run(columns.map((column) => row[column] ?? null));
    }
    if (newest) this.hlc.observe(newest);
  }

  private transaction(changes: RowChange[]): WriteTransaction {
    const record = (change: RowChange) => {
      this.wrote(change.entity);
      if (this.keepsFeed) this.recordChange.run(change.entity, change.entity_id, change.op, change.row ? JSON.stringify(change.row) : null, change.hlc);
      changes.push(change);
    };
    return {
      insert: (table, row) => {
        const stamp = this.hlc.now();
        const stored: Row = { ...row, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        this.statement(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
          ...Object.values(stored),
        );
        record({ entity: table, entity_id: String(stored.id), op: 'insert', row: stored, hlc: stamp });
      },
      update: (table, id, columnsChanged) => {
        const stamp = this.hlc.now();
        const stored: Row = { ...columnsChanged, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        const result = this.statement(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(
          ...Object.values(stored),
          id,
        );
        if (result.changes === 0) return false;
        const full = this.statement(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Row;
        record({ entity: table, entity_id: id, op: 'update', row: full, hlc: stamp });
        return true;
      },
      remove: (table, id) => {
        const stamp = this.hlc.now();
        const result = this.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
        if (result.changes === 0) return false;
        record({ entity: table, entity_id: id, op: 'delete', row: null, hlc: stamp });
        return true;
      },
    };
  }

  private wrote(table: string): void {
    this.writesPerTable.set(table, (this.writesPerTable.get(table) ?? 0) + 1);
  }

  /**
   * Inserts a row, or replaces the stored one only when its stamp is older (`<`) — or, to
   * replay a kept change, not newer (`<=`) — than the incoming one.
   */
  private lastWriterWinsUpsert(entity: string, columns: string[], older: '<' | '<='): Statement {
    const assignments = columns.filter((column) => column !== 'id').map((column) => `${column} = excluded.${column}`);
    return this.statement(
      `INSERT INTO ${entity} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${assignments.join(', ')} WHERE ${entity}.hlc ${older} excluded.hlc`,
    );
  }

  /** Statements are prepared once per shape and kept, as the hot paths need. */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** `last_change` is the physical time of the row's HLC stamp, as an ISO instant. */
function lastChangeOf(stamp: string): string {
  return new Date(decodeHlc(stamp).ms).toISOString();
}
