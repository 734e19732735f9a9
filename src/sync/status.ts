/**
 * `loyaltyd sync status` and the sync part of /health: read from the database alone, so
 * the CLI can report on a running daemon.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/open.js';
import { decodeHlc } from '../core/hlc.js';
import { SyncState } from './sync-state.js';

export interface StoreSyncStatus {
  mode: 'store';
  hub_url: string | null;
  reachable: boolean | null;
  last_attempt_at: string | null;
  last_push_at: string | null;
  last_pull_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  outbox: {
    pending: number;
    oldest_pending_age_seconds: number | null;
    rejected: number;
    /** Whether rows a hub restored from a backup lost are being sent again (src/sync/replay.ts). */
    replaying: boolean;
  };
  feed: {
    cursor: number | null;
    hub_last_seq: number | null;
    lag_rows: number | null;
    lag_seconds: number | null;
    bootstrapping: boolean;
    /** Changes from a hub a schema version ahead, kept until this store's upgrade (src/sync/deferred-changes.ts). */
    awaiting_upgrade: number;
  };
  /** How far the newest stamp this node has seen runs ahead of its wall clock (DESIGN §5). */
  clock_drift_ms: number;
  conflicts: number;
}

export interface HubSyncStatus {
  mode: 'hub';
  feed_last_seq: number;
  nodes: { name: string; generation: string | null; last_seq: number | null; last_seen_at: string | null; seconds_since_seen: number | null }[];
  clock_drift_ms: number;
  conflicts: number;
}

export type SyncStatus = StoreSyncStatus | HubSyncStatus;

/**
 * The sync state as `/health` shows it, to anyone who can reach the port: a hub counts its
 * stores and how long the most silent has been quiet, and names none (`loyaltyd sync status`
 * on the hub's machine lists them).
 */
export type PublicSyncStatus = StoreSyncStatus | (Omit<HubSyncStatus, 'nodes'> & { stores: number; longest_silence_seconds: number | null });

export function publicSyncStatus(status: SyncStatus): PublicSyncStatus {
  if (status.mode === 'store') return status;
  const { nodes, ...rest } = status;
  const silences = nodes.map((node) => node.seconds_since_seen).filter((seconds) => seconds !== null);
  return { ...rest, stores: new Set(nodes.map((node) => node.name)).size, longest_silence_seconds: silences.length > 0 ? Math.max(...silences) : null };
}

export function readSyncStatus(db: Db, mode: 'store' | 'hub', hubUrl: string | undefined, clock: Clock): SyncStatus {
  const conflicts = (db.prepare('SELECT count(*) AS n FROM sync_conflicts').get() as { n: number }).n;
  const now = clock();
  const secondsSince = (iso: string | null | undefined) => (iso ? Math.max(0, Math.round((now - Date.parse(iso)) / 1000)) : null);
  if (mode === 'hub') {
    const nodes = db
      .prepare<[], { name: string; generation: string | null; last_seq: number | null; last_seen_at: string | null }>(
        `SELECT n.name, p.generation, p.last_seq, p.last_seen_at FROM nodes n
         LEFT JOIN sync_node_progress p ON p.node_id = n.id ORDER BY n.name, p.last_seen_at DESC`,
      )
      .all()
      .map((node) => ({ ...node, seconds_since_seen: secondsSince(node.last_seen_at) }));
    const feed = db.prepare('SELECT max(seq) AS seq, max(hlc) AS hlc FROM changes').get() as { seq: number | null; hlc: string | null };
    return { mode, feed_last_seq: feed.seq ?? 0, nodes, clock_drift_ms: driftOf(feed.hlc, now), conflicts };
  }
  const state = new SyncState(db);
  const outbox = db
    .prepare<[], { pending: number; oldest: string | null }>(
      `SELECT (SELECT count(*) FROM outbox WHERE status = 'pending') AS pending,
              (SELECT min(created_at) FROM outbox WHERE status = 'pending') AS oldest`,
    )
    .get()!;
  const cursor = state.number('cursor') ?? null;
  const hubLastSeq = state.number('hub_last_seq') ?? null;
  const lagRows = cursor !== null && hubLastSeq !== null ? Math.max(0, hubLastSeq - cursor) : null;
  const hubTime = state.get('hub_time');
  const lastSuccess = state.get('last_success_at') ?? null;
  const lastErrorAt = state.get('last_error_at') ?? null;
  return {
    mode,
    hub_url: hubUrl ?? null,
    reachable: lastSuccess === null && lastErrorAt === null ? null : lastSuccess !== null && (lastErrorAt === null || lastSuccess >= lastErrorAt),
    last_attempt_at: state.get('last_attempt_at') ?? null,
    last_push_at: state.get('last_push_at') ?? null,
    last_pull_at: state.get('last_pull_at') ?? null,
    last_success_at: lastSuccess,
    last_error: lastErrorAt !== null && (lastSuccess === null || lastErrorAt > lastSuccess) ? (state.get('last_error') ?? null) : null,
    outbox: {
      pending: outbox.pending,
      oldest_pending_age_seconds: secondsSince(outbox.oldest),
      rejected: state.number('rejected_commands') ?? 0,
      replaying: state.get('replay_after') !== undefined || state.get('replay_refused') !== undefined,
    },
    feed: {
      cursor,
      hub_last_seq: hubLastSeq,
      lag_rows: lagRows,
      lag_seconds: lagRows === null ? null : lagRows === 0 ? 0 : secondsSince(hubTime),
      bootstrapping: state.get('snapshot_position') !== undefined,
      awaiting_upgrade: (db.prepare('SELECT count(*) AS n FROM sync_deferred').get() as { n: number }).n,
    },
    clock_drift_ms: driftOf(state.get('newest_stamp') ?? null, now),
    conflicts,
  };
}

function driftOf(stamp: string | null, now: number): number {
  return stamp ? Math.max(0, decodeHlc(stamp).ms - now) : 0;
}
