/**
 * The one write path for stored data (DESIGN §5). Every insert, update and delete made
 * through a `WriteTransaction` gets a fresh HLC stamp and, on a node that keeps the feed, a
 * change-feed row in the same SQLite transaction (none for node-local tables,
 * src/db/node-local.ts); in store mode the API command that caused the write is appended to
 * the outbox in that transaction too, with the row changes it made and the operation it is
 * (the call and the ids it made, src/core/operations.ts) — so a row, its feed entry and the
 * command that must reach the hub are committed together or not at all.
 */
import type { Statement } from './engine.js';
import type { Clock } from '../core/clock.js';
import { decodeHlc, type HybridLogicalClock } from '../core/hlc.js';
import type { IdGenerator } from '../core/ids.js';
import type { Operations } from '../core/operations.js';
import { requestJson, writtenAtHeadOffice } from '../core/errors.js';
import { GatheredChanges } from './change-feed.js';
import { rowsDigest } from './rows-digest.js';
import { NODE_LOCAL } from './node-local.js';
import { UNSENT_STAMP_KEY } from './node-identity.js';
import type { Db } from './open.js';
import type { Statements } from './statements.js';
import type { TableVersions } from './table-versions.js';
import type { Tables } from './tables.generated.js';

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

/** A row as a write gives it: the table's columns (src/db/tables.generated.ts) but the stamps the write path fills in. */
export type WrittenRow<T extends TableName> = Omit<Tables[T], 'hlc' | 'last_change'>;

export interface WriteTransaction {
  /** Inserts a row; `hlc` and `last_change` are filled in. */
  insert<T extends TableName>(table: T, row: WrittenRow<T>): void;
  /** Changes some columns of an existing row; returns false when no row has that id. */
  update<T extends TableName>(table: T, id: string, changes: Partial<WrittenRow<T>>): boolean;
  remove(table: TableName, id: string): boolean;
}

/** What WritePath is built from. */
export interface WritePathOptions {
  db: Db;
  statements: Statements;
  /** The table versions this path's writes move (src/db/table-versions.ts). */
  versions: TableVersions;
  hlc: HybridLogicalClock;
  newId: IdGenerator;
  mode: Mode;
  clock: Clock;
  /**
   * Whether a local write of a table goes to the change feed: every table's on the hub, which
   * serves the feed; on a store with no hub, the tables its recommendation model reads, whose
   * changes go once it has followed them. A store serves no feed, so it keeps no other
   * (DESIGN §5, "Scopes, compaction, retention").
   */
  keepsInFeed: (table: string) => boolean;
  operations: Operations;
  /**
   * A store with a hub queues only the operations the hub runs again (DESIGN §5 "Authority"):
   * any other write is head office's, and refused at once, 403, rather than queued for the hub
   * to reject.
   */
  operationsOnly: boolean;
}

export class WritePath {
  private readonly appendCommand: Statement;
  private readonly keepUnsentStamp: Statement;
  private readonly commitListeners: (() => void)[] = [];
  private readonly writeListeners: ((changes: readonly RowChange[], tx: WriteTransaction) => void)[] = [];
  /** better-sqlite3 builds a transaction wrapper per call to db.transaction(); one is made and reused. */
  private readonly inTransaction: (run: () => unknown) => unknown;
  private joining = false;
  private collected: RowChange[] | undefined;
  /** The feed's changes of the writes under way, recorded as each write ends. */
  private readonly feed: GatheredChanges;

  private readonly db: Db;
  private readonly statements: Statements;
  readonly versions: TableVersions;
  private readonly hlc: HybridLogicalClock;
  private readonly newId: IdGenerator;
  private readonly mode: Mode;
  private readonly clock: Clock;
  private readonly keepsInFeed: (table: string) => boolean;
  private readonly operations: Operations;
  private readonly operationsOnly: boolean;

  constructor(options: WritePathOptions) {
    const { db, statements, versions, hlc, newId, mode, clock, keepsInFeed, operations, operationsOnly } = options;
    this.db = db;
    this.statements = statements;
    this.versions = versions;
    this.hlc = hlc;
    this.newId = newId;
    this.mode = mode;
    this.clock = clock;
    this.keepsInFeed = keepsInFeed;
    this.operations = operations;
    this.operationsOnly = operationsOnly;
    this.feed = new GatheredChanges(statements);
    this.inTransaction = db.transaction((run: () => unknown) => run());
    // The generation is read from meta in the same statement: a store restored from a
    // backup moves to a new generation (src/sync/store/pusher.ts) while it runs.
    this.appendCommand = db.prepare(
      `INSERT INTO outbox (command_id, generation, kind, payload, changes, hlc, created_at, operation)
       VALUES (?, (SELECT value FROM meta WHERE key = 'generation'), ?, ?, ?, ?, ?, ?)`,
    );
    this.keepUnsentStamp = db.prepare(
      `INSERT INTO meta (key, value) VALUES ('${UNSENT_STAMP_KEY}', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE excluded.value > meta.value`,
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
   * Runs `work` in one SQLite transaction. `command` is the API write being applied; a
   * store queues it for the hub with the row changes it made, the hub (the system of
   * record) does not.
   */
  write<T>(command: Command | null, work: (tx: WriteTransaction) => T): T {
    const queued = command !== null && this.mode === 'store';
    const run = this.joining && this.db.inTransaction ? (body: () => unknown) => body() : this.inTransaction;
    const result = run(() => {
      const mark = this.feed.mark;
      try {
        return this.writeInTransaction(queued ? command : undefined, work);
      } catch (error) {
        this.feed.dropFrom(mark);
        throw error;
      }
    }) as T;
    if (queued) for (const listener of this.commitListeners) listener();
    return result;
  }

  /** The body of `write`, inside its transaction: the work, its listeners' derived rows, the feed's changes, and the command a store queues. */
  private writeInTransaction<T>(queued: Command | undefined, work: (tx: WriteTransaction) => T): T {
    const changes: RowChange[] = [];
    const tx = this.transaction(changes);
    const value = work(tx);
    const made = [...changes];
    const derived = this.writeListeners.length > 0 ? this.transaction(changes, 'derived') : tx;
    for (const listener of this.writeListeners) listener(made, derived);
    this.feed.record();
    if (queued) {
      // The call's ids are taken before the command's own id is made. A command that carries
      // its call keeps no payload: the call is what the hub runs, and a payload would be a
      // second copy of the bill beside the call in every outbox row. The rows stay here, to
      // be taken back or swapped for the hub's: their stamps and digest go up, never they.
      const recorded = this.operations.takeRecorded();
      if (this.operationsOnly && (recorded === undefined || !('continues' in recorded || recorded.call))) {
        throw writtenAtHeadOffice(`a store with a hub does not perform ${queued.kind}`);
      }
      const rows = JSON.stringify(changes);
      const operation = recorded !== undefined && 'continues' in recorded ? recorded : { ...(recorded ?? { ids: [] }), ...rowsOf(changes, rows) };
      this.appendCommand.run(
        this.newId(),
        queued.kind,
        recorded !== undefined && 'call' in recorded && recorded.call ? 'null' : JSON.stringify(queued.payload),
        rows,
        this.hlc.now(),
        new Date(this.clock()).toISOString(),
        // The call's input as sent, fields no schema reads among them: one nested too deep to
        // write out is refused as the body, and the write rolls back.
        requestJson(operation),
      );
    }
    if (!queued) this.keepNewestUnsent(changes);
    return value;
  }

  /**
   * A node resumes its clock past the newest stamp in its feed and outbox. A write that queues
   * no command, of rows the feed does not keep, keeps its newest stamp in meta instead: a clock
   * set back across a restart would otherwise stamp again at or before it, and a customer's
   * state published with that stamp as its horizon would seem to hold the newer facts.
   */
  private keepNewestUnsent(changes: readonly RowChange[]): void {
    let newest = '';
    for (const change of changes) if (change.hlc > newest && !NODE_LOCAL.has(change.entity) && !this.keepsInFeed(change.entity)) newest = change.hlc;
    if (newest) this.keepUnsentStamp.run(newest);
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
   * Runs `work` and returns it with every row change the writes inside it made: the hub's
   * result of a store's operation (src/sync/hub/hub-operations.ts).
   */
  collecting<T>(work: () => T): { value: T; changes: RowChange[] } {
    const outer = this.collected;
    const changes: RowChange[] = [];
    this.collected = changes;
    try {
      return { value: work(), changes };
    } finally {
      this.collected = outer;
      outer?.push(...changes);
    }
  }

  /**
   * The write's rows (`own`), or the rows its listeners derive from them, which the hub stamps
   * as its own and which are not a replayed operation's result.
   */
  private transaction(changes: RowChange[], rows: 'own' | 'derived' = 'own'): WriteTransaction {
    const record = (change: RowChange) => {
      this.versions.wrote(change.entity);
      if (this.keepsInFeed(change.entity)) this.feed.add(change);
      changes.push(change);
      if (rows === 'own') this.collected?.push(change);
    };
    // A store's operation run again at the hub writes its rows with the stamps the hub chose.
    const replayedStamp = (table: string, id: string) => (rows === 'own' ? this.operations.stampOf(table, id) : undefined);
    const stampOf = (table: string, id: string) => replayedStamp(table, id) ?? this.hlc.now();
    return {
      insert: (table, row) => {
        const stamp = stampOf(table, String((row as Row).id));
        const stored: Row = { ...row, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        this.statements
          .get(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
          .run(...Object.values(stored));
        record({ entity: table, entity_id: String(stored.id), op: 'insert', row: stored, hlc: stamp });
      },
      update: (table, id, columnsChanged) => {
        const replayed = replayedStamp(table, id);
        const stamp = replayed ?? this.hlc.now();
        const stored: Row = { ...columnsChanged, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        // A store's update run again at the hub is a write of its stamp: the last writer wins,
        // so it changes nothing where a later write came first.
        const newer = replayed === undefined ? '' : ' AND hlc < ?';
        const result = this.statements
          .get(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?${newer}`)
          .run(...Object.values(stored), id, ...(replayed === undefined ? [] : [replayed]));
        if (result.changes === 0) return false;
        const full = this.statements.get(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Row;
        record({ entity: table, entity_id: id, op: 'update', row: full, hlc: stamp });
        return true;
      },
      remove: (table, id) => {
        const stamp = stampOf(table, id);
        const result = this.statements.get(`DELETE FROM ${table} WHERE id = ?`).run(id);
        if (result.changes === 0) return false;
        record({ entity: table, entity_id: id, op: 'delete', row: null, hlc: stamp });
        return true;
      },
    };
  }
}

/** What an operation says of the rows its call wrote: their stamps in the order written, and their digest. */
function rowsOf(changes: readonly RowChange[], text: string): { stamps: string[]; digest: string } {
  return { stamps: changes.map((change) => change.hlc), digest: rowsDigest(text) };
}

/** `last_change` is the physical time of the row's HLC stamp, as an ISO instant. */
function lastChangeOf(stamp: string): string {
  return new Date(decodeHlc(stamp).ms).toISOString();
}
