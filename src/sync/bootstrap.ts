/**
 * Bootstrap: a store that has never pulled loads the hub's snapshot, then follows the feed
 * from the snapshot's position. Rows are loaded in batches, each in one transaction with
 * the point reached (table and last id), so an interrupted bootstrap resumes where it
 * stopped. The resumed part may be newer than the first position; following the feed from
 * that first position replays changes already loaded, which last-writer-wins ignores. Rows
 * of a table or with a column this store's schema lacks yet (a hub one version ahead) are
 * loaded as far as the schema goes and kept whole for after the upgrade
 * (src/sync/deferred-changes.ts).
 */
import type { Row } from '../db/write-path.js';
import type { SyncParts } from './sync-parts.js';
import type { DeferredChanges } from './deferred-changes.js';
import { dropIndexesIfFresh, rebuildIndexes } from './bootstrap-indexes.js';
import { BootstrapSweep } from './bootstrap-sweep.js';
import { LocalSchema } from './local-schema.js';
import { replicatedTables } from './replicated-tables.js';
import { isSnapshotRow, SnapshotHeader, type RowChange, type SnapshotRow } from './protocol.js';

export interface BootstrapProgress {
  loaded: number;
  total: number;
}

/**
 * Rows a load transaction takes. A bootstrap commits with `synchronous=NORMAL`: its commits
 * are not fsynced one by one (the WAL is at each checkpoint), which in WAL mode loses at most
 * the last batches on a power cut, never the file's integrity — and a lost batch is loaded
 * again, since the point reached is committed with it. Small commits, each fsynced, were a
 * third of a bootstrap's time (test/bench/README.md).
 */
const BATCH_ROWS = 10_000;

/** What a bootstrap works with: a store's sync parts (src/sync/agent.ts). */
type SnapshotParts = Pick<SyncParts, 'db' | 'replicated' | 'client' | 'state' | 'deferred' | 'nodeId' | 'pusher'>;

export async function bootstrapIfNeeded(parts: SnapshotParts, onProgress?: (progress: BootstrapProgress) => void): Promise<boolean> {
  const { db, state } = parts;
  if (state.get('cursor') !== undefined) return false;
  // Foreign keys are not checked while the snapshot loads: the hub's rows hold them, and the
  // snapshot sends parents before children (src/sync/replicated-tables.ts). Checking them cost
  // a card row three times the rest of its upsert on the sync bench.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  try {
    return await loadSnapshot(parts, onProgress);
  } finally {
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = FULL');
  }
}

async function loadSnapshot({ db, replicated, client, state, deferred, nodeId, pusher }: SnapshotParts, onProgress?: (progress: BootstrapProgress) => void): Promise<boolean> {
  const entity = state.get('snapshot_entity');
  const afterId = state.get('snapshot_after_id');
  // Reported so that the states published from now on count this store in their horizon
  // before its first pull: none of them may take a fact it makes as already folded.
  const lines = client.snapshot(entity && afterId !== undefined ? { entity, afterId } : undefined, pusher.pushedThrough());
  let header: SnapshotHeader | undefined;
  let batch: SnapshotRow[] = [];
  let loaded = 0;
  let complete = false;
  const schema = LocalSchema.read(db);
  const tables = replicatedTables(db);
  const sweep = new BootstrapSweep(db, state, nodeId);
  sweep.begin(tables);
  dropIndexesIfFresh(db, state, tables);
  const load = db.transaction((rows: SnapshotRow[]) => {
    for (const run of runsByEntity(rows)) {
      const loaded = fitted(run, schema, deferred);
      replicated.loadSnapshotRows(run.entity, loaded);
      sweep.noteLoaded(run.entity, loaded);
    }
    const last = rows[rows.length - 1]!;
    state.set('snapshot_entity', last.entity);
    state.set('snapshot_after_id', String(last.row.id));
  });
  for await (const chunk of lines) {
    for (const line of chunk) {
      if (!header) {
        header = SnapshotHeader.parse(JSON.parse(line));
        if (state.get('snapshot_position') === undefined) {
          state.set('snapshot_position', header.position);
          if (header.feed_id === undefined) state.clear('feed_id');
          else state.set('feed_id', header.feed_id);
        }
        onProgress?.({ loaded, total: header.total_rows });
        continue;
      }
      const record = JSON.parse(line) as { end?: boolean };
      if (record.end === true) {
        complete = true;
        break;
      }
      if (!isSnapshotRow(record)) throw new Error(`a snapshot line is not a row: ${line.slice(0, 200)}`);
      batch.push(record);
      if (batch.length >= BATCH_ROWS) {
        load(batch);
        loaded += batch.length;
        batch = [];
        onProgress?.({ loaded, total: header.total_rows });
      }
    }
    if (complete) break;
  }
  if (!header || !complete) throw new Error('the snapshot stream ended early; the next round resumes it');
  if (batch.length) load(batch);
  loaded += batch.length;
  onProgress?.({ loaded, total: header.total_rows });
  db.transaction(() => {
    sweep.finish(tables);
    rebuildIndexes(db, state);
    state.set('cursor', state.number('snapshot_position') ?? header.position);
    state.clear('snapshot_position');
    state.clear('snapshot_entity');
    state.clear('snapshot_after_id');
  })();
  return true;
}

/**
 * The rows of a run this store's schema takes, as far as it takes them; each row it does not
 * take whole is kept. A snapshot sends a table's rows with the same columns, so a run whose
 * first row fits fits whole.
 */
function fitted(run: { entity: string; rows: Row[] }, schema: LocalSchema, deferred: DeferredChanges): Row[] {
  const asChange = (row: Row): RowChange => ({ entity: run.entity, entity_id: String(row.id), op: 'insert', row: row as RowChange['row'], hlc: String(row.hlc) });
  const first = run.rows[0];
  if (!first || schema.fit(asChange(first)).complete) return run.rows;
  return run.rows.flatMap((row) => {
    const change = asChange(row);
    deferred.keep(change);
    const { applicable } = schema.fit(change);
    return applicable?.row ? [applicable.row] : [];
  });
}

/** The batch cut where the snapshot moves from one table to the next (it sends table by table). */
function runsByEntity(rows: SnapshotRow[]): { entity: string; rows: SnapshotRow['row'][] }[] {
  const runs: { entity: string; rows: SnapshotRow['row'][] }[] = [];
  for (const { entity, row } of rows) {
    const current = runs[runs.length - 1];
    if (current?.entity === entity) current.rows.push(row);
    else runs.push({ entity, rows: [row] });
  }
  return runs;
}
