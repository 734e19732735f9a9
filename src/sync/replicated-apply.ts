/**
 * Changes made on other nodes, applied with their stamps: last writer wins by HLC per row, so
 * applying the same change twice, or an older one after a newer, changes nothing. The hub
 * applies stores' commands with it (src/sync/hub/hub-commands.ts), a store the feed
 * (src/sync/store/puller.ts) and the snapshot (src/sync/store/bootstrap.ts). Local writes go through the
 * write path (src/db/write-path.ts), which stamps them anew.
 */
import type { Statement } from 'better-sqlite3';
import type { HybridLogicalClock } from '../core/hlc.js';
import { recordChange } from '../db/change-feed.js';
import type { Statements } from '../db/statements.js';
import type { TableVersions } from '../db/table-versions.js';
import type { Row, RowChange } from '../db/write-path.js';

export class ReplicatedApply {
  constructor(
    private readonly statements: Statements,
    private readonly versions: TableVersions,
    private readonly hlc: HybridLogicalClock,
  ) {}

  /**
   * Applies one change, keeping its stamp. Must run inside a transaction. Returns whether the
   * row changed. A row of the change's own stamp keeps its values, unless `sameStamp` yields:
   * a change kept for after an upgrade comes back whole to a row that took its known columns
   * (src/sync/store/deferred-changes.ts). The hub records what changed in its feed.
   */
  apply(change: RowChange, recordInFeed: boolean, sameStamp: 'keeps' | 'yields' = 'keeps'): boolean {
    const older = sameStamp === 'keeps' ? '<' : '<=';
    this.hlc.observe(change.hlc);
    this.versions.wrote(change.entity);
    let changed: boolean;
    if (change.op === 'delete') {
      changed = this.statements.get(`DELETE FROM ${change.entity} WHERE id = ? AND hlc ${older} ?`).run(change.entity_id, change.hlc).changes > 0;
    } else {
      const row = change.row ?? {};
      changed = this.lastWriterWinsUpsert(change.entity, Object.keys(row), older).run(...Object.values(row)).changes > 0;
    }
    if (changed && recordInFeed) recordChange(this.statements, change);
    return changed;
  }

  /**
   * Loads rows of one table from the hub's snapshot with apply's last-writer-wins upsert (a
   * resumed bootstrap may meet rows it already holds): `arrays` is the JSON text of an array
   * of rows, each the array of its `columns`' values, which SQLite reads itself — one
   * statement a batch, where parsing and binding each row in JavaScript cost more than its
   * insert. `jsonb_each` gives each row as JSONB, whose values are read without parsing the
   * row's text again for each column: half the cost of `json_each` (test/bench/README.md). The stamps are observed once, from the snapshot's clock
   * (`observe`). Must run inside a transaction.
   */
  loadSnapshotArrays(entity: string, columns: string[], arrays: string): void {
    this.versions.wrote(entity);
    const values = columns.map((_, index) => `value ->> ${index}`);
    this.statements
      .get(
        `INSERT INTO ${entity} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM jsonb_each(?) WHERE true ${this.lastWriterWins(entity, columns, '<')}`,
      )
      .run(arrays);
  }

  /**
   * Loads rows of one table, as objects, with the same upsert: the rows of a snapshot table
   * this store's schema takes only in part (src/sync/store/bootstrap.ts). Must run inside a transaction.
   */
  loadSnapshotRows(entity: string, rows: Row[]): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const upsert = this.lastWriterWinsUpsert(entity, columns, '<');
    this.versions.wrote(entity);
    for (const row of rows) upsert.run(columns.map((column) => row[column] ?? null));
  }

  /** Moves this node's clock past a stamp it was sent: the snapshot's clock, past all its rows'. */
  observe(stamp: string): void {
    this.hlc.observe(stamp);
  }

  /**
   * Inserts a row, or replaces the stored one only when its stamp is older (`<`) — or, to
   * replay a kept change, not newer (`<=`) — than the incoming one.
   */
  private lastWriterWinsUpsert(entity: string, columns: string[], older: '<' | '<='): Statement {
    return this.statements.get(
      `INSERT INTO ${entity} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ${this.lastWriterWins(entity, columns, older)}`,
    );
  }

  private lastWriterWins(entity: string, columns: string[], older: '<' | '<='): string {
    const assignments = columns.filter((column) => column !== 'id').map((column) => `${column} = excluded.${column}`);
    return `ON CONFLICT (id) DO UPDATE SET ${assignments.join(', ')} WHERE ${entity}.hlc ${older} excluded.hlc`;
  }
}
