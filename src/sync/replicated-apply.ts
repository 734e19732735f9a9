/**
 * Changes made on other nodes, applied with their stamps: last writer wins by HLC per row, so
 * applying the same change twice, or an older one after a newer, changes nothing. The hub
 * applies stores' commands with it (src/sync/hub/hub-commands.ts), a store the feed
 * (src/sync/store/puller.ts) and the snapshot (src/sync/store/bootstrap.ts). Local writes go through the
 * write path (src/db/write-path.ts), which stamps them anew.
 */
import type { Statement } from '../db/engine.js';
import { hlcOriginSql, type HybridLogicalClock } from '../core/hlc.js';
import { recordChange } from '../db/change-feed.js';
import type { Statements } from '../db/statements.js';
import type { TableVersions } from '../db/table-versions.js';
import type { Row, RowChange } from '../db/write-path.js';

/**
 * A store's own rows the hub may not hold yet, which a snapshot never takes back: those stamped
 * by its node after the newest stamp the hub is known to hold of it (src/sync/store/replay.ts, heldByHubThrough).
 */
export interface OwnRows {
  nodeId: string;
  heldThrough: string;
}

/** Whether a row stamped `column` is one of `OwnRows`: binds the node id, then the stamp held through. */
export function ownRowSql(column: string): string {
  return `(${hlcOriginSql(column)} = ? AND ${column} > ?)`;
}

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
      const columns = Object.keys(row);
      changed = this.upsert(change.entity, columns, this.lastWriterWins(change.entity, columns, older)).run(...Object.values(row)).changes > 0;
    }
    if (changed && recordInFeed) recordChange(this.statements, change);
    return changed;
  }

  /**
   * Loads rows of one table from the hub's snapshot: `arrays` is the UTF-8 bytes of the JSON
   * text of an array of rows, each the array of its `columns`' values, which SQLite reads
   * itself — one statement a batch, where parsing and binding each row in JavaScript cost more
   * than its insert. Bound as a blob and cast to text, the bytes reach SQLite's JSON parser
   * without becoming a JavaScript string (src/sync/store/snapshot-lines.ts). `jsonb_each` gives
   * each row as JSONB, whose values are read without parsing the row's text again for each
   * column: half the cost of `json_each` (test/bench/README.md). The stamps are observed once,
   * from the snapshot's clock (`observe`). A row the store holds takes the snapshot's
   * (`snapshotWins`). Must run inside a transaction.
   */
  loadSnapshotArrays(entity: string, columns: string[], arrays: Buffer, own: OwnRows): void {
    this.versions.wrote(entity);
    const values = columns.map((_, index) => `value ->> ${index}`);
    this.statements
      .get(
        `INSERT INTO ${entity} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM jsonb_each(CAST(? AS TEXT)) WHERE true ${this.snapshotWins(entity, columns)}`,
      )
      .run(arrays, own.nodeId, own.heldThrough);
  }

  /**
   * Loads rows of one table, as objects, as loadSnapshotArrays does: the rows of a snapshot
   * table this store's schema takes only in part (src/sync/store/bootstrap.ts). Must run inside a transaction.
   */
  loadSnapshotRows(entity: string, rows: Row[], own: OwnRows): void {
    const first = rows[0];
    if (!first) return;
    const columns = Object.keys(first);
    const upsert = this.upsert(entity, columns, this.snapshotWins(entity, columns));
    this.versions.wrote(entity);
    for (const row of rows) upsert.run(...columns.map((column) => row[column] ?? null), own.nodeId, own.heldThrough);
  }

  /** Moves this node's clock past a stamp it was sent: the snapshot's clock, past all its rows'. */
  observe(stamp: string): void {
    this.hlc.observe(stamp);
  }

  /** Inserts a row of `columns`, or on its id does what `onConflict` says. */
  private upsert(entity: string, columns: string[], onConflict: string): Statement {
    return this.statements.get(`INSERT INTO ${entity} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ${onConflict}`);
  }

  /**
   * Replaces the stored row only when its stamp is older (`<`) — or, to replay a kept change,
   * not newer (`<=`) — than the incoming one.
   */
  private lastWriterWins(entity: string, columns: string[], older: '<' | '<='): string {
    return `${this.onConflict(columns)} WHERE ${entity}.hlc ${older} excluded.hlc`;
  }

  /**
   * The snapshot's row replaces the store's when it is newer, and also when it is older, unless
   * the store's row is one of its own the hub may not hold yet (`OwnRows`, bound after the
   * statement's other parameters). The hub's rows are the chain's: a store holds a row newer than
   * the hub's only when the hub was restored from a backup and lost that version, which the
   * store must lose too, or the two differ until the row changes again
   * (src/decisions/0068-backups.md).
   */
  private snapshotWins(entity: string, columns: string[]): string {
    return `${this.onConflict(columns)} WHERE ${entity}.hlc < excluded.hlc OR NOT ${ownRowSql(`${entity}.hlc`)}`;
  }

  private onConflict(columns: string[]): string {
    const assignments = columns.filter((column) => column !== 'id').map((column) => `${column} = excluded.${column}`);
    return `ON CONFLICT (id) DO UPDATE SET ${assignments.join(', ')}`;
  }
}
