/**
 * What a node holds, by scope (src/sync/protocol/scopes.ts), and how retention and compaction keep it
 * so (DESIGN §5): shown by `loyaltyd sync status` and /health. Read from the database alone,
 * so the CLI can report on a running daemon.
 *
 * /health reads it on the event loop, at each probe. Counting rows reads every page of a
 * table, and every store holds every customer's rows, the hub also every fact of the chain:
 * so the scopes a node never deletes from in the middle (the chain and customer states, and
 * on the hub every scope) are sized from their rowids, max − min + 1, two B-tree seeks
 * whatever the size, and the hub's feed from the span of its seqs. A hub on PostgreSQL, which
 * has no rowid and whose ids follow no order of insertion, takes each table's size from the
 * catalogue's estimate (`estimatedRowsSql`). What a store's retention bounds (its own facts,
 * its feed) is counted, and the backlog over the oldest rows alone (`backlogSql`); so are its
 * own stores' users, a few rows a bootstrap may have deleted others' from.
 */
import type { Statement } from '../db/engine.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { spelt } from '../db/dialect.js';
import type { Db } from '../db/open.js';
import { prepareOnSqlite, sqliteOnly } from '../db/sqlite.js';
import { FLOOR_KEY } from './hub/feed-compaction.js';
import { replicatedTables } from './replicated-tables.js';
import { scopeOf, type Scope } from './protocol/scopes.js';
import { SettlingStatusReader, type SettlingStatus } from './hub/settling-status.js';
import { SyncState } from './sync-state.js';

export interface StorageStatus {
  /** Rows held per scope: sized from rowids where nothing is deleted in the middle, estimated on PostgreSQL (see above). */
  scopes: Record<Scope, number>;
  /** Change-feed rows held (a store with a hub keeps none); on the hub the span of its seqs, which compaction leaves gaps in. */
  feed_rows: number;
  /** On a store: its facts older than retention.local_days still held (not yet acknowledged or covered), and the last run. */
  retention?: { backlog_rows: number; last_run_at: string | null; deleted_total: number };
  /** On the hub: the last compaction of the feed and the seq below which a store must bootstrap again. */
  compaction?: { last_run_at: string | null; floor: number };
  /** On the hub: the customer states' horizon and what is left to settle (src/sync/hub/settling-status.ts). */
  settling?: SettlingStatus;
}

/** What /health shows of it, to anyone who can reach the port: the store holding the horizon back goes unnamed. */
export function publicStorage(storage: StorageStatus): StorageStatus {
  if (!storage.settling) return storage;
  return { ...storage, settling: { ...storage.settling, reported_by: null, held_by: null } };
}

/** Reads a node's storage status; its statements are prepared once, since /health reads it at each probe. */
export class StorageReader {
  private readonly sizes: { scope: Scope; rows: Statement<[], number>; backlog: Statement<{ cutoff: string }, number> | undefined }[] = [];
  private readonly feedRows: Statement<[], number>;
  private readonly hub:
    { lastRun: Statement<[], string | null>; floor: Statement<[], string | undefined>; settling: SettlingStatusReader } | undefined;
  private readonly state: SyncState | undefined;

  constructor(
    db: Db,
    private readonly config: Pick<Config, 'mode' | 'retention' | 'offline'>,
  ) {
    const store = config.mode === 'store';
    const pluck = (sql: string) => db.prepare<[], number>(sql).pluck();
    const sized = (table: string) => spelt(db, { sqlite: spanOfRowidsSql(table), postgres: estimatedRowsSql(table) });
    for (const table of replicatedTables(db)) {
      const scope = scopeOf(table);
      if (!scope) continue;
      const ownFacts = store && scope === 'origin';
      const counted = ownFacts || (store && scope === 'store');
      this.sizes.push({
        scope,
        rows: pluck(counted ? `SELECT count(*) FROM ${table}` : sized(table)),
        // A store's database is SQLite's.
        backlog: ownFacts
          ? prepareOnSqlite<[{ cutoff: string }], number>(sqliteOnly(db, "a store's retention backlog"), backlogSql(table)).pluck()
          : undefined,
      });
    }
    this.feedRows = pluck(store ? 'SELECT count(*) FROM changes' : FEED_SEQS_SQL);
    this.hub = store
      ? undefined
      : {
          lastRun: db.prepare<[], string | null>('SELECT max(marked_at) FROM sync_feed_marks').pluck(),
          floor: db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FLOOR_KEY}'`).pluck(),
          settling: new SettlingStatusReader(db, config.offline.max_age_hours * 3_600_000),
        };
    this.state = store ? new SyncState(db) : undefined;
  }

  read(clock: Clock): StorageStatus {
    const scopes: Record<Scope, number> = { chain: 0, store: 0, 'customer-state': 0, origin: 0 };
    const cutoff = new Date(clock() - this.config.retention.local_days * 86_400_000).toISOString();
    let backlog = 0;
    for (const { scope, rows, backlog: old } of this.sizes) {
      scopes[scope] += rows.get()!;
      if (old) backlog += old.get({ cutoff })!;
    }
    const feedRows = this.feedRows.get()!;
    if (this.hub) {
      const floor = Number(this.hub.floor.get() ?? 0);
      return {
        scopes,
        feed_rows: feedRows,
        compaction: { last_run_at: this.hub.lastRun.get() ?? null, floor },
        settling: this.hub.settling.read(clock()),
      };
    }
    const state = this.state!;
    return {
      scopes,
      feed_rows: feedRows,
      retention: {
        backlog_rows: backlog,
        last_run_at: state.get('last_retention_at') ?? null,
        deleted_total: state.number('retention_deleted') ?? 0,
      },
    };
  }
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
function spanOfRowidsSql(table: string): string {
  return `SELECT coalesce((SELECT max(rowid) FROM ${table}) - (SELECT min(rowid) FROM ${table}) + 1, 0)`;
}

/** The feed's seqs, last − first + 1 (0 when empty): compaction leaves gaps in them. */
const FEED_SEQS_SQL = 'SELECT coalesce((SELECT max(seq) FROM changes) - (SELECT min(seq) FROM changes) + 1, 0)';

/**
 * A table's rows on PostgreSQL as its planner estimates them, with no read of the table: the
 * rows per page the last VACUUM or ANALYZE found (autovacuum runs them as a table grows), times
 * the pages it has now. A table never analyzed, or empty when it was, is counted: it is small,
 * or autovacuum analyzes it within the minute.
 */
function estimatedRowsSql(table: string): string {
  return `SELECT CAST(CASE WHEN c.reltuples < 0 OR c.relpages = 0 THEN (SELECT count(*) FROM ${table})
                      ELSE CAST(c.reltuples AS float8) / c.relpages * (pg_relation_size(c.oid) / CAST(current_setting('block_size') AS integer)) END AS bigint)
          FROM pg_class c WHERE c.oid = CAST('${table}' AS regclass)`;
}
