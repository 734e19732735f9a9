/**
 * Bootstrap: a store that has never pulled loads the hub's snapshot, then follows the feed
 * from the snapshot's position. Rows are loaded in batches, each in one transaction with
 * the point reached (table and last id), so an interrupted bootstrap resumes where it
 * stopped. The resumed part may be newer than the first position; following the feed from
 * that first position replays changes already loaded, which last-writer-wins ignores. Rows
 * of a table or with a column this store's schema lacks yet (a hub one version ahead) are
 * loaded as far as the schema goes and kept whole for after the upgrade
 * (src/sync/store/deferred-changes.ts).
 */
import { z } from 'zod';
import type { Row } from '../../db/write-path.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import { sqliteOnly } from '../../db/sqlite.js';
import type { SyncParts } from './sync-parts.js';
import type { DeferredChanges } from './deferred-changes.js';
import { dropIndexesIfFresh, rebuildIndexes } from './bootstrap-indexes.js';
import { BootstrapSweep } from './bootstrap-sweep.js';
import { RowBatch, snapshotLines } from './snapshot-lines.js';
import { LocalSchema } from './local-schema.js';
import { replicatedTables } from '../replicated-tables.js';
import type { OwnRows, ReplicatedApply } from '../replicated-apply.js';
import { heldByHubThrough } from './replay.js';
import { forgetHubOnlyColumns } from '../protocol/scopes.js';
import { SnapshotEnd, SnapshotHeader, SnapshotTable, SnapshotValues, type RowChange } from '../protocol/protocol.js';

export interface BootstrapProgress {
  loaded: number;
  total: number;
}

/** Rows a load transaction takes. */
const BATCH_ROWS = 10_000;

/** What a bootstrap works with: a store's sync parts (src/sync/store/agent.ts). */
type SnapshotParts = Pick<SyncParts, 'db' | 'replicated' | 'client' | 'state' | 'deferred' | 'nodeId' | 'pusher' | 'replay'>;

export async function bootstrapIfNeeded(parts: SnapshotParts, onProgress?: (progress: BootstrapProgress) => void): Promise<boolean> {
  if (parts.state.get('cursor') !== undefined) return false;
  return loadSnapshot(parts, onProgress);
}

/**
 * A load transaction. Its commit is not fsynced (src/db/unsynced-commit.ts): a lost batch is
 * loaded again, since the point reached is committed with it; small commits, each fsynced,
 * were a third of a bootstrap's time (test/bench/README.md). Foreign keys are not checked:
 * the hub's rows hold them, and the snapshot sends parents before children
 * (src/sync/replicated-tables.ts); checking them cost a card row three times the rest of its
 * upsert. Both hold for the transaction alone: what the cash desks write between batches is
 * checked and fsynced. (The pragma is a no-op inside a transaction, so it is set around it.)
 */
function loadTransaction<T>(db: SnapshotParts['db'], work: () => T): T {
  const sqlite = sqliteOnly(db, "a store's snapshot load");
  sqlite.pragma('foreign_keys = OFF');
  try {
    return commitUnsynced(sqlite, work);
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
}

async function loadSnapshot(
  { db, replicated, client, state, deferred, nodeId, pusher, replay }: SnapshotParts,
  onProgress?: (progress: BootstrapProgress) => void,
): Promise<boolean> {
  const entity = state.get('snapshot_entity');
  const afterId = state.get('snapshot_after_id');
  // Reported so that the states published from now on count a new store in their horizon
  // before its first pull: none of them may take a fact it makes as already folded.
  const lines = client.snapshot(entity && afterId !== undefined ? { entity, afterId } : undefined, pusher.reportAtBootstrap());
  let header: SnapshotHeader | undefined;
  let table: TableLoad | undefined;
  let batch = new RowBatch();
  let loaded = 0;
  let complete = false;
  const schema = LocalSchema.read(db);
  const tables = replicatedTables(db);
  const sweep = new BootstrapSweep(db, state, nodeId);
  sweep.begin(tables);
  dropIndexesIfFresh(db, state, tables);
  const flush = () => {
    const into = table;
    const rows = batch;
    if (!into || rows.rows === 0) return;
    loadTransaction(db, () => {
      state.set('snapshot_entity', into.entity);
      state.set('snapshot_after_id', into.load(rows));
    });
    loaded += rows.rows;
    batch = new RowBatch();
    onProgress?.({ loaded, total: header!.total_rows });
  };
  for await (const text of lines) {
    for (const piece of snapshotLines(text)) {
      if (piece.kind === 'rows') {
        if (!table) throw new Error(`a snapshot row came before its table: ${piece.last.toString('utf8', 0, 200)}`);
        batch.add(piece);
        if (batch.rows >= BATCH_ROWS) flush();
        continue;
      }
      if (!header) {
        const opening = readHeader(piece.text);
        replicated.observe(opening.clock);
        header = opening;
        if (state.get('snapshot_position') === undefined) {
          commitUnsynced(db, () => {
            state.set('snapshot_position', opening.position);
            if (opening.feed_id === undefined) state.clear('feed_id');
            else state.set('feed_id', opening.feed_id);
            // The restored hub's record of this store's seqs ends where its backup did: the
            // commands queued since would come after a gap, which sends a store to bootstrap again.
            if (replay.plan(opening.node_through)) pusher.startNewGeneration();
          });
        }
        onProgress?.({ loaded, total: header.total_rows });
        continue;
      }
      const record: unknown = JSON.parse(piece.text);
      if (SnapshotEnd.safeParse(record).success) {
        complete = true;
        break;
      }
      flush();
      table = new TableLoad(SnapshotTable.parse(record), {
        replicated,
        deferred,
        sweep,
        schema,
        own: { nodeId, heldThrough: heldByHubThrough(state) },
      });
    }
    if (complete) break;
  }
  if (!header || !complete) throw new Error('the snapshot stream ended early; the next round resumes it');
  flush();
  const position = header.position;
  // What the hub keeps from its stores goes with the load: hub-only values and other stores'
  // users that an older version sent, or the store held before it was joined to a hub.
  loadTransaction(db, () => {
    sweep.finish(tables);
    forgetHubOnlyColumns(db);
    rebuildIndexes(db, state);
    state.set('cursor', state.number('snapshot_position') ?? position);
    state.clear('snapshot_position');
    state.clear('snapshot_entity');
    state.clear('snapshot_after_id');
  });
  return true;
}

/** The snapshot's first line, in the format this version reads. */
function readHeader(line: string): SnapshotHeader & { clock: string } {
  const header = SnapshotHeader.parse(JSON.parse(line));
  if (header.format !== 'columns' || header.clock === undefined) {
    throw new Error("the hub sends the previous version's snapshot: upgrade the hub before its stores");
  }
  return { ...header, clock: header.clock };
}

/**
 * One table of the snapshot as this store loads it. A table its schema takes whole goes to
 * SQLite as the JSON bytes the hub sent; otherwise (a hub a version ahead) each row is applied as
 * far as the schema goes and kept whole for after the upgrade.
 */
class TableLoad {
  readonly entity: string;
  private readonly idIndex: number;
  private readonly whole: boolean;

  constructor(
    private readonly opening: SnapshotTable,
    private readonly parts: { replicated: ReplicatedApply; deferred: DeferredChanges; sweep: BootstrapSweep; schema: LocalSchema; own: OwnRows },
  ) {
    this.entity = opening.table;
    this.idIndex = opening.columns.indexOf('id');
    if (this.idIndex < 0) throw new Error(`the snapshot's ${opening.table} rows have no id`);
    this.whole = parts.schema.takes(opening.table, opening.columns);
  }

  /** Loads a batch of rows; returns the last row's id. Runs inside the batch's transaction. */
  load(batch: RowBatch): string {
    const { replicated, sweep, schema, deferred, own } = this.parts;
    const arrays = batch.arrays();
    if (this.whole) {
      replicated.loadSnapshotArrays(this.entity, this.opening.columns, arrays, own);
      sweep.noteLoadedArrays(this.entity, this.idIndex, arrays);
    } else {
      const rows = z
        .array(SnapshotValues)
        .parse(JSON.parse(arrays.toString('utf8')))
        .map((values) => Object.fromEntries(this.opening.columns.map((column, index) => [column, values[index] ?? null])) as Row);
      const fit = fitted({ entity: this.entity, rows }, schema, deferred);
      replicated.loadSnapshotRows(this.entity, fit, own);
      sweep.noteLoaded(this.entity, fit);
    }
    return String(SnapshotValues.parse(batch.lastRow())[this.idIndex]);
  }
}

/**
 * The rows of a table this store's schema takes, as far as it takes them; each row it does
 * not take whole is kept.
 */
function fitted(run: { entity: string; rows: Row[] }, schema: LocalSchema, deferred: DeferredChanges): Row[] {
  return run.rows.flatMap((row) => {
    const change: RowChange = { entity: run.entity, entity_id: String(row.id), op: 'insert', row: row as RowChange['row'], hlc: String(row.hlc) };
    const { applicable } = schema.fit(change);
    deferred.keep(change, applicable !== undefined);
    return applicable?.row ? [applicable.row] : [];
  });
}
