/**
 * The one write path for stored data (DESIGN §5). Every insert, update and delete made
 * through a `WriteTransaction` records a change-feed row with a fresh HLC stamp in the same
 * SQLite transaction, and in store mode the API command that caused the write is appended
 * to the outbox in that transaction too — so a row, its feed entry and the command that
 * must reach the hub are committed together or not at all.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { decodeHlc, type HybridLogicalClock } from '../sync/hlc.js';
import type { IdGenerator } from '../sync/ids.js';
import type { Db } from './open.js';

export type Mode = 'store' | 'hub';
export type StoredValue = string | number | bigint | null;
export type Row = Record<string, StoredValue>;

export interface Command {
  kind: string;
  payload: unknown;
}

export interface WriteTransaction {
  /** Inserts a row; `hlc` and `last_change` are filled in. */
  insert(table: string, row: Row): void;
  /** Changes some columns of an existing row; returns false when no row has that id. */
  update(table: string, id: string, changes: Row): boolean;
  remove(table: string, id: string): boolean;
}

export class WritePath {
  private readonly statements = new Map<string, Statement>();
  private readonly recordChange: Statement;
  private readonly appendCommand: Statement;

  constructor(
    private readonly db: Db,
    private readonly hlc: HybridLogicalClock,
    private readonly newId: IdGenerator,
    private readonly mode: Mode,
    private readonly generation: string,
    private readonly clock: Clock,
  ) {
    this.recordChange = db.prepare('INSERT INTO changes (entity, entity_id, op, row, hlc) VALUES (?, ?, ?, ?, ?)');
    this.appendCommand = db.prepare(
      'INSERT INTO outbox (command_id, generation, kind, payload, hlc, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /**
   * Runs `work` in one SQLite transaction. `command` is the API write being applied; a
   * store queues it for the hub, the hub (the system of record) does not.
   */
  write<T>(command: Command | null, work: (tx: WriteTransaction) => T): T {
    return this.db.transaction(() => {
      const result = work(this.transaction());
      if (command && this.mode === 'store') {
        const stamp = this.hlc.now();
        this.appendCommand.run(
          this.newId(),
          this.generation,
          command.kind,
          JSON.stringify(command.payload),
          stamp,
          new Date(this.clock()).toISOString(),
        );
      }
      return result;
    })();
  }

  private transaction(): WriteTransaction {
    return {
      insert: (table, row) => {
        const stamp = this.hlc.now();
        const stored: Row = { ...row, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        this.statement(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
          ...Object.values(stored),
        );
        this.recordChange.run(table, String(stored.id), 'insert', JSON.stringify(stored), stamp);
      },
      update: (table, id, changes) => {
        const stamp = this.hlc.now();
        const stored: Row = { ...changes, hlc: stamp, last_change: lastChangeOf(stamp) };
        const columns = Object.keys(stored);
        const result = this.statement(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(
          ...Object.values(stored),
          id,
        );
        if (result.changes === 0) return false;
        const full = this.statement(`SELECT * FROM ${table} WHERE id = ?`).get(id);
        this.recordChange.run(table, id, 'update', JSON.stringify(full), stamp);
        return true;
      },
      remove: (table, id) => {
        const stamp = this.hlc.now();
        const result = this.statement(`DELETE FROM ${table} WHERE id = ?`).run(id);
        if (result.changes === 0) return false;
        this.recordChange.run(table, id, 'delete', null, stamp);
        return true;
      },
    };
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
