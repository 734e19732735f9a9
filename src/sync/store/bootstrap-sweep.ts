/**
 * A store that bootstraps again (its position fell behind the hub's compacted feed,
 * src/sync/hub/feed-compaction.ts) may hold rows the hub deleted meanwhile: their tombstones are
 * gone from the feed, and the snapshot only upserts. It may also hold rows it is sent no more:
 * the users of stores its node does not serve, which an older version sent every store
 * (src/sync/protocol/scopes.ts). So the load notes every row the snapshot
 * sends (sync_snapshot_seen) and, in the transaction that ends it, deletes the
 * rows of the tables stores hold that the snapshot did not send — all but this store's
 * own rows the hub has not acknowledged yet, or holds no more (a replay is due,
 * src/sync/store/replay.ts), which are on their way to it. A row it
 * acknowledged after the snapshot was read comes back with the feed from the snapshot's
 * position. The notes are kept in the file, so a load killed midway sweeps when its resume
 * completes.
 */
import type { Statement } from '../../db/engine.js';
import type { Db } from '../../db/open.js';
import type { Row } from '../../db/write-path.js';
import { heldByHubThrough } from './replay.js';
import { ownRowSql } from '../replicated-apply.js';
import { reachesStores } from '../protocol/scopes.js';
import type { SyncState } from '../sync-state.js';

/** Whether the store holds a row of any of `tables`. */
export function holdsRows(db: Db, tables: string[]): boolean {
  return tables.some((table) => db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined);
}

export class BootstrapSweep {
  private readonly note: Statement<[string, string]>;

  constructor(
    private readonly db: Db,
    private readonly state: SyncState,
    private readonly nodeId: string,
  ) {
    this.note = db.prepare('INSERT OR IGNORE INTO sync_snapshot_seen (entity, id) VALUES (?, ?)');
  }

  /** At a load's start: a store that holds rows sweeps after it. */
  begin(tables: string[]): void {
    if (this.state.get('snapshot_sweep') !== undefined || this.state.get('snapshot_position') !== undefined) return;
    if (holdsRows(this.db, tables)) this.state.set('snapshot_sweep', 'pending');
  }

  /** Notes a loaded batch's rows. Runs inside the batch's transaction. */
  noteLoaded(entity: string, rows: Row[]): void {
    if (this.state.get('snapshot_sweep') === undefined) return;
    for (const row of rows) this.note.run(entity, String(row.id));
  }

  /** Notes a loaded batch's rows given as the UTF-8 bytes of a JSON array of value arrays, the id at `idIndex`. Runs inside the batch's transaction. */
  noteLoadedArrays(entity: string, idIndex: number, arrays: Buffer): void {
    if (this.state.get('snapshot_sweep') === undefined) return;
    // The index is written into the statement: `->>` reads a bound number as a REAL, not an array index.
    this.db
      .prepare(`INSERT OR IGNORE INTO sync_snapshot_seen (entity, id) SELECT ?, value ->> ${idIndex} FROM jsonb_each(CAST(? AS TEXT))`)
      .run(entity, arrays);
  }

  /** Deletes what the snapshot did not send; returns how many rows. Runs inside the transaction that ends the load. */
  finish(tables: string[]): number {
    if (this.state.get('snapshot_sweep') === undefined) return 0;
    const acked = heldByHubThrough(this.state);
    let deleted = 0;
    for (const table of tables.filter(reachesStores)) {
      deleted += this.db
        .prepare(
          `DELETE FROM ${table} WHERE NOT EXISTS (SELECT 1 FROM sync_snapshot_seen s WHERE s.entity = '${table}' AND s.id = ${table}.id)
           AND NOT ${ownRowSql('hlc')}`,
        )
        .run(this.nodeId, acked).changes;
    }
    // A user swept away (another store's, src/sync/protocol/scopes.ts) logs in here no more, and
    // the bearer sessions they had go with them.
    this.db.exec('DELETE FROM user_sessions WHERE user_id NOT IN (SELECT id FROM users)');
    this.db.exec('DELETE FROM sync_snapshot_seen');
    this.state.clear('snapshot_sweep');
    return deleted;
  }
}
