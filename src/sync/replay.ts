/**
 * Replay: a hub restored from a backup has lost the commands a store pushed after the backup,
 * which the store deleted from its outbox once they were acknowledged. The store still holds
 * their rows (its facts for `retention.local_days`, the customers and cards it registered for
 * good), so it sends them again as they stand.
 *
 * The snapshot a store bootstraps from says which of its commands the hub holds
 * (`node_through`, the newest command stamp, src/sync/hub-commands.ts). When that is older
 * than what the hub acknowledged, the bootstrap plans a replay of the store's own rows
 * stamped between the two: every table a store writes, parents before children, each in
 * stamp order, 500 rows a request. The hub checks each row as a command of the store's own
 * and applies it as last writer wins, so a row it holds changes nothing, and a row sent twice
 * (a round cut midway) is harmless. Until the replay is done the rows count as unacknowledged
 * (`heldByHubThrough`): the bootstrap's sweep and retention keep them, and the store reports
 * the hub's stamp as what it has pushed through, so that the hub folds no state past them.
 * A round replays before it pushes, so a command queued meanwhile finds the rows it names.
 * A row the hub refuses is listed as a conflict (`rejected_replay`).
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Db } from '../db/open.js';
import { commitUnsynced } from '../db/unsynced-commit.js';
import type { Row } from '../db/write-path.js';
import { replayOp } from './command-policy.js';
import type { HubClient } from './hub-client.js';
import { MAX_REPLAYED_ROWS, type RowChange } from './protocol.js';
import { replicatedTables } from './replicated-tables.js';
import type { SyncState } from './sync-state.js';

/** Where a replay stands: the table it is in and the last row it sent there. */
interface Position {
  table: string;
  hlc: string;
  id: string;
}

/**
 * The stamp through which this store's own rows are known to be at the hub: the newest one it
 * acknowledged, or, while a replay is due, the one the restored hub said it holds.
 */
export function heldByHubThrough(state: SyncState): string {
  const acked = state.get('acked_stamp') ?? '';
  const after = state.get('replay_after');
  return after !== undefined && after < acked ? after : acked;
}

export class Replay {
  private readonly recordConflict: Statement;

  constructor(
    private readonly db: Db,
    private readonly state: SyncState,
    private readonly client: HubClient,
    private readonly nodeId: string,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
  ) {
    this.recordConflict = db.prepare(
      'INSERT OR IGNORE INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /**
   * Plans a replay when the hub holds less of this store than it acknowledged; `nodeThrough`
   * undefined means the hub cannot tell. Runs in the transaction that notes the snapshot's
   * start. A replay planned already (a hub restored twice) starts again from the older stamp.
   */
  plan(nodeThrough: string | undefined): void {
    const acked = this.state.get('acked_stamp');
    if (nodeThrough === undefined || acked === undefined || nodeThrough >= acked) return;
    const planned = this.state.get('replay_after');
    this.state.set('replay_after', planned !== undefined && planned < nodeThrough ? planned : nodeThrough);
    this.state.set('replay_through', acked);
    this.state.clear('replay_position');
  }

  /** Sends the planned rows, a request at a time, each followed by the point reached; returns how many rows. */
  async replayAll(): Promise<number> {
    const after = this.state.get('replay_after');
    const through = this.state.get('replay_through');
    if (after === undefined || through === undefined) return 0;
    const tables = replicatedTables(this.db).filter((table) => replayOp(table) !== undefined);
    let position = this.position(tables);
    let sent = 0;
    while (position) {
      const rows = this.rowsAfter(position, after, through);
      if (rows.length === 0) {
        const next = tables[tables.indexOf(position.table) + 1];
        position = next === undefined ? undefined : { table: next, hlc: '', id: '' };
        continue;
      }
      const table = position.table;
      const op = replayOp(table)!;
      const changes: RowChange[] = rows.map((row) => ({ entity: table, entity_id: String(row.id), op, row: wireRow(row), hlc: String(row.hlc) }));
      const response = await this.client.replay({ changes });
      const last = changes.at(-1)!;
      position = { table, hlc: last.hlc, id: last.entity_id };
      const reached = position;
      commitUnsynced(this.db, () => {
        const now = new Date(this.clock()).toISOString();
        for (const refused of response.rejected) {
          this.recordConflict.run(this.newId(), 'rejected_replay', refused.entity, refused.entity_id, JSON.stringify({ reason: refused.reason }), now);
        }
        this.state.set('replay_position', JSON.stringify(reached));
      });
      sent += changes.length;
    }
    commitUnsynced(this.db, () => {
      this.state.clear('replay_after');
      this.state.clear('replay_through');
      this.state.clear('replay_position');
    });
    return sent;
  }

  private position(tables: string[]): Position | undefined {
    const saved = this.state.get('replay_position');
    if (saved !== undefined) return JSON.parse(saved) as Position;
    const first = tables[0];
    return first === undefined ? undefined : { table: first, hlc: '', id: '' };
  }

  private rowsAfter(position: Position, after: string, through: string): Row[] {
    return this.db
      .prepare<[string, string, string, string, string], Row>(
        `SELECT * FROM ${position.table}
         WHERE substr(hlc, 19) = ? AND hlc > ? AND hlc <= ? AND (hlc, id) > (?, ?)
         ORDER BY hlc, id LIMIT ${MAX_REPLAYED_ROWS}`,
      )
      .all(this.nodeId, after, through, position.hlc, position.id);
  }
}

/** A row as the wire carries it (src/sync/protocol.ts): SQLite's integers as numbers. */
function wireRow(row: Row): Record<string, string | number | null> {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === 'bigint' ? Number(value) : value]));
}
