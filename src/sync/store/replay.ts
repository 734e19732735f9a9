/**
 * Replay: a hub restored from a backup has lost the commands a store pushed after the backup,
 * which the store deleted from its outbox once they were acknowledged. The store still holds
 * their rows (its facts for `retention.local_days`, the customers and cards it registered for
 * good), so it sends them again as they stand.
 *
 * The snapshot a store bootstraps from says which of its commands the hub holds
 * (`node_through`, the newest command stamp, src/sync/hub/hub-commands.ts). When that is older
 * than what the hub acknowledged, the bootstrap plans a replay of the store's own rows
 * stamped between the two: every table a store writes, parents before children, each in the
 * order the rows came to this store (rowid), 500 rows a request. The hub checks each row as a command of the store's own
 * and applies it as last writer wins, so a row it holds changes nothing, and a row sent twice
 * (a round cut midway) is harmless. Until the replay is done the rows count as unacknowledged
 * (`heldByHubThrough`): the bootstrap's sweep and retention keep them, and the store reports
 * the hub's stamp as what it has pushed through, so that the hub folds no state past them.
 * A round replays before it pushes, so a command queued meanwhile finds the rows it names.
 * A row the hub refuses is listed as a conflict (`rejected_replay`), but for one that names a
 * row the hub does not hold (`not_found`): another store's row the restore also lost, a
 * customer registered there, which that store has not sent back yet. Such a row is sent again
 * each round for up to `offline.max_age_hours`, then listed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Db } from '../../db/open.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import type { Row } from '../../db/write-path.js';
import { replayOp } from '../hub/command-policy.js';
import type { HubClient } from './hub-client.js';
import { MAX_REPLAYED_ROWS, type ReplayResponse, type RowChange } from '../protocol/protocol.js';
import { replicatedTables } from '../replicated-tables.js';
import type { SyncState } from '../sync-state.js';
import { conflictListing, type ConflictListing } from '../conflict-listing.js';

/** Where a replay stands: the table it is in and the last rowid it read there. */
interface Position {
  table: string;
  rowid: number;
}

/** A row the hub refused for naming a row it does not hold, to be sent again. */
interface Refused {
  table: string;
  id: string;
}

/**
 * Rows of a table one select reads, in rowid order. A store's own rows are found by their
 * stamps, which no index of most tables holds: one select per request would read a million
 * customers on the event loop the tills wait on. A window of this many rows takes about a
 * millisecond, the tills served between windows (as retention reads, src/sync/store/retention.ts).
 */
const WINDOW = 2000;

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
  private readonly recordConflict: ConflictListing;

  constructor(
    private readonly db: Db,
    private readonly state: SyncState,
    private readonly client: HubClient,
    private readonly nodeId: string,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
    /** How long a row refused for naming a row the hub does not hold is sent again. */
    private readonly retryMs: number,
  ) {
    this.recordConflict = conflictListing(db);
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

  /**
   * Sends the planned rows, a request at a time, each followed by the point reached, then the
   * rows to send again; returns how many rows it sent.
   */
  async replayAll(): Promise<number> {
    // Every round asks; the schema is read only when there is something to send.
    if (this.state.get('replay_after') === undefined && this.state.get('replay_refused') === undefined) return 0;
    const tables = replicatedTables(this.db).filter((table) => replayOp(table) !== undefined);
    return (await this.replayPlanned(tables)) + (await this.sendRefusedAgain(tables));
  }

  private async replayPlanned(tables: string[]): Promise<number> {
    const after = this.state.get('replay_after');
    const through = this.state.get('replay_through');
    if (after === undefined || through === undefined) return 0;
    let position = this.position(tables);
    let sent = 0;
    while (position) {
      const { rows, reached } = await this.rowsAfter(position, after, through);
      if (rows.length > 0) {
        const table = position.table;
        const response = await this.send(table, rows);
        commitUnsynced(this.db, () => {
          const retry = this.refusedList();
          this.keepOrList(response.rejected, retry);
          this.saveRefused(retry);
          this.state.set('replay_position', JSON.stringify(reached));
        });
        sent += rows.length;
      }
      if (reached.rowid !== position.rowid || rows.length > 0) position = reached;
      else {
        const next = tables[tables.indexOf(position.table) + 1];
        position = next === undefined ? undefined : { table: next, rowid: 0 };
      }
    }
    commitUnsynced(this.db, () => {
      this.state.clear('replay_after');
      this.state.clear('replay_through');
      this.state.clear('replay_position');
    });
    return sent;
  }

  /** The rows refused for naming a row the hub did not hold, sent again, parents first; those refused again are kept until the deadline. */
  private async sendRefusedAgain(tables: string[]): Promise<number> {
    const refused = this.refusedList();
    if (refused.length === 0) return 0;
    const still: Refused[] = [];
    let sent = 0;
    for (const table of tables) {
      const ids = refused.filter((row) => row.table === table).map((row) => row.id);
      for (let start = 0; start < ids.length; start += MAX_REPLAYED_ROWS) {
        const chunk = ids.slice(start, start + MAX_REPLAYED_ROWS);
        const rows = this.db.prepare<string[], Row>(`SELECT * FROM ${table} WHERE id IN (${chunk.map(() => '?').join(', ')})`).all(...chunk);
        if (rows.length === 0) continue;
        const response = await this.send(table, rows);
        commitUnsynced(this.db, () => this.keepOrList(response.rejected, still));
        sent += rows.length;
      }
    }
    commitUnsynced(this.db, () => this.saveRefused(still));
    return sent;
  }

  /** Lists the hub's refusals as conflicts, but adds to `retry` those it may take later, until the deadline. Runs in a transaction. */
  private keepOrList(rejected: ReplayResponse['rejected'], retry: Refused[]): void {
    const now = this.clock();
    const until = this.state.number('replay_retry_until') ?? now + this.retryMs;
    const detected = new Date(now).toISOString();
    for (const refused of rejected) {
      if (refused.reason === 'not_found' && now <= until) retry.push({ table: refused.entity, id: refused.entity_id });
      else this.recordConflict.run(this.newId(), 'rejected_replay', refused.entity, refused.entity_id, JSON.stringify({ reason: refused.reason }), detected);
    }
  }

  private refusedList(): Refused[] {
    const saved = this.state.get('replay_refused');
    return saved === undefined ? [] : (JSON.parse(saved) as Refused[]);
  }

  /** Keeps the rows to send again, with the deadline set when the first of them was refused. Runs in a transaction. */
  private saveRefused(rows: Refused[]): void {
    if (rows.length === 0) {
      this.state.clear('replay_refused');
      this.state.clear('replay_retry_until');
      return;
    }
    this.state.set('replay_refused', JSON.stringify(rows));
    if (this.state.get('replay_retry_until') === undefined) this.state.set('replay_retry_until', this.clock() + this.retryMs);
  }

  private position(tables: string[]): Position | undefined {
    const saved = this.state.get('replay_position');
    if (saved !== undefined) return JSON.parse(saved) as Position;
    const first = tables[0];
    return first === undefined ? undefined : { table: first, rowid: 0 };
  }

  /** Up to a request's rows of this store's stamped in (after, through], window by window from `position`, with where the reading stopped. */
  private async rowsAfter(position: Position, after: string, through: string): Promise<{ rows: Row[]; reached: Position }> {
    const windowEnd = this.db.prepare<[number], number | null>(`SELECT max(rowid) FROM (SELECT rowid FROM ${position.table} WHERE rowid > ? ORDER BY rowid LIMIT ${WINDOW})`).pluck();
    const select = this.db.prepare<[number, number, string, string, string], Row>(
      `SELECT rowid AS replay_rowid, * FROM ${position.table} WHERE rowid > ? AND rowid <= ? AND substr(hlc, 19) = ? AND hlc > ? AND hlc <= ? ORDER BY rowid`,
    );
    const rows: Row[] = [];
    let from = position.rowid;
    for (;;) {
      const to = windowEnd.get(from);
      if (to === null || to === undefined) break;
      for (const row of select.all(from, to, this.nodeId, after, through)) {
        rows.push(row);
        if (rows.length === MAX_REPLAYED_ROWS) return { rows, reached: { table: position.table, rowid: Number(row.replay_rowid) } };
      }
      from = to;
      await nextTurn();
    }
    return { rows, reached: { table: position.table, rowid: from } };
  }

  /** One request of a table's rows, as they stand. */
  private send(table: string, rows: Row[]): Promise<ReplayResponse> {
    const op = replayOp(table)!;
    const changes: RowChange[] = rows.map(({ replay_rowid: _rowid, ...row }) => ({ entity: table, entity_id: String(row.id), op, row: wireRow(row), hlc: String(row.hlc) }));
    return this.client.replay({ changes });
  }
}

/** A row as the wire carries it (src/sync/protocol/protocol.ts): SQLite's integers as numbers. */
function wireRow(row: Row): Record<string, string | number | null> {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === 'bigint' ? Number(value) : value]));
}
