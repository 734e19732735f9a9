/**
 * What a node holds, by scope (src/sync/scopes.ts), and how retention and compaction keep it
 * so (DESIGN §5): shown by `loyaltyd sync status` and /health. Read from the database alone,
 * so the CLI can report on a running daemon.
 *
 * /health reads it on the event loop, at each probe. Counting rows reads every page of a
 * table, and every store holds every customer's rows, the hub also every fact of the chain:
 * so the scopes a node never deletes from in the middle (the chain and customer states, and
 * on the hub every scope and the feed's span) are sized from their rowids, max − min + 1,
 * two B-tree seeks whatever the size. What a store's retention bounds (its own facts, its
 * feed) is counted, and the backlog over the oldest rows alone (`backlogSql`).
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/open.js';
import { FLOOR_KEY } from './feed-compaction.js';
import { replicatedTables } from './replicated-tables.js';
import { scopeOf, type Scope } from './scopes.js';
import { SettlingStatusReader, type SettlingStatus } from './settling-status.js';
import { SyncState } from './sync-state.js';

export interface StorageStatus {
  /** Rows held per scope: sized from rowids where nothing is deleted in the middle (see above). */
  scopes: Record<Scope, number>;
  /** Change-feed rows held (a store with a hub keeps none); on the hub the span of its seqs, which compaction leaves gaps in. */
  feed_rows: number;
  /** On a store: its facts older than retention.local_days still held (not yet acknowledged or covered), and the last run. */
  retention?: { backlog_rows: number; last_run_at: string | null; deleted_total: number };
  /** On the hub: the last compaction of the feed and the seq below which a store must bootstrap again. */
  compaction?: { last_run_at: string | null; floor: number };
  /** On the hub: the customer states' horizon and what is left to settle (src/sync/settling-status.ts). */
  settling?: SettlingStatus;
}

/** What /health shows of it, to anyone who can reach the port: the store holding the horizon back goes unnamed. */
export function publicStorage(storage: StorageStatus): StorageStatus {
  if (!storage.settling) return storage;
  return { ...storage, settling: { ...storage.settling, held_by: null } };
}

export function readStorage(db: Db, config: Pick<Config, 'mode' | 'retention' | 'offline'>, clock: Clock): StorageStatus {
  const { mode } = config;
  const scopes: Record<Scope, number> = { chain: 0, 'customer-state': 0, origin: 0 };
  const counted = (table: string) => db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get()!;
  const cutoff = new Date(clock() - config.retention.local_days * 86_400_000).toISOString();
  let backlog = 0;
  for (const table of replicatedTables(db)) {
    const scope = scopeOf(table);
    if (!scope) continue;
    const ownFacts = mode === 'store' && scope === 'origin';
    scopes[scope] += ownFacts ? counted(table) : spanOfRowids(db, table);
    if (ownFacts) backlog += db.prepare<{ cutoff: string }, number>(backlogSql(table)).pluck().get({ cutoff })!;
  }
  const feedRows = mode === 'store' ? counted('changes') : spanOfRowids(db, 'changes');
  if (mode === 'hub') {
    const lastRun = db.prepare<[], string | null>('SELECT max(marked_at) FROM sync_feed_marks').pluck().get() ?? null;
    const floor = Number(db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck().get() ?? 0);
    const settling = new SettlingStatusReader(db, config.offline.max_age_hours * 3_600_000).read(clock());
    return { scopes, feed_rows: feedRows, compaction: { last_run_at: lastRun, floor }, settling };
  }
  const state = new SyncState(db);
  return {
    scopes,
    feed_rows: feedRows,
    retention: { backlog_rows: backlog, last_run_at: state.get('last_retention_at') ?? null, deleted_total: state.number('retention_deleted') ?? 0 },
  };
}

/**
 * A store's own facts older than the cutoff, counted in rowid order up to the first one newer:
 * a node appends its facts as it writes them, so the old ones come first, and retention
 * deletes them from there. Counting every row older than the cutoff read every row of the
 * table at each probe (24 ms on a store holding 35 days of 1,000 bills).
 */
function backlogSql(table: string): string {
  return `SELECT count(*) FROM ${table}
          WHERE rowid < coalesce((SELECT min(rowid) FROM ${table} WHERE last_change >= @cutoff), (SELECT max(rowid) FROM ${table}) + 1)
            AND last_change < @cutoff`;
}

/** A table's rows from its rowids, max − min + 1 (0 when empty): each by one seek, where one aggregate of both would scan. */
function spanOfRowids(db: Db, table: string): number {
  return db.prepare<[], number>(`SELECT coalesce((SELECT max(rowid) FROM ${table}) - (SELECT min(rowid) FROM ${table}) + 1, 0)`).pluck().get()!;
}
