/**
 * `loyaltyd sync status` and the sync part of /health: read from the database alone, so
 * the CLI can report on a running daemon.
 */
import type { Statement } from '../db/engine.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/open.js';
import type { LeftJoined, NodesRow, SyncNodeClocksRow, SyncNodeProgressRow } from '../db/tables.generated.js';
import { decodeHlc } from '../core/hlc.js';
import { SyncState } from './sync-state.js';
import { recentRounds } from './store/round-log.js';

export interface StoreSyncStatus {
  mode: 'store';
  hub_url: string | null;
  /** Whether the hub answered the last round, if only to refuse it; null before the first round. */
  reachable: boolean | null;
  last_attempt_at: string | null;
  last_push_at: string | null;
  last_pull_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  /**
   * The HTTP status the hub answered the last round with when it refused it (401: it refuses
   * this node's name or secret); null when that round succeeded or the hub did not answer.
   */
  last_error_status: number | null;
  outbox: {
    pending: number;
    oldest_pending_age_seconds: number | null;
    rejected: number;
    /** Whether rows a hub restored from a backup lost are being sent again (src/sync/store/replay.ts). */
    replaying: boolean;
  };
  feed: {
    cursor: number | null;
    hub_last_seq: number | null;
    lag_rows: number | null;
    lag_seconds: number | null;
    bootstrapping: boolean;
    /** Changes from a hub a schema version ahead, kept until this store's upgrade (src/sync/store/deferred-changes.ts). */
    awaiting_upgrade: number;
  };
  /** How far the newest stamp this node has seen runs ahead of its wall clock (DESIGN §5). */
  clock_drift_ms: number;
  /**
   * How far this store's stamps ran ahead of the hub's clock, past the hub's tolerance, in the
   * last push: the hub applied them at its own time (src/sync/hub/clock-skews.ts); 0 when they did not.
   */
  clock_skew_ms: number;
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
  return {
    ...rest,
    stores: new Set(nodes.map((node) => node.name)).size,
    longest_silence_seconds: silences.length > 0 ? Math.max(...silences) : null,
  };
}

/**
 * The hub's newest change and stamp, each read by its own subquery: one SELECT of both
 * aggregates walked the whole feed (176 ms at 2M changes), and every /health, /metrics and
 * /status of the hub reads it.
 */
export const FEED_HEAD_SQL = 'SELECT (SELECT max(seq) FROM changes) AS seq, (SELECT max(hlc) FROM changes) AS hlc';

/** A node with each of its progress rows; reported_at is when the store last pulled (or bootstrapped), reporting what it pushed through. */
type NodeRow = Pick<NodesRow, 'name'> &
  LeftJoined<Pick<SyncNodeProgressRow, 'generation' | 'last_seq' | 'last_seen_at'> & Pick<SyncNodeClocksRow, 'reported_at'>>;

/**
 * Reads the sync status with its statements prepared once: a store's report reads it on every
 * request to the hub, and preparing them again cost the cash desks' event loop ~0.2 ms each time.
 */
export class SyncStatusReader {
  private readonly state: SyncState;
  private readonly conflicts: Statement<[], number>;
  private readonly nodes: Statement<[], NodeRow>;
  private readonly feed: Statement<[], { seq: number | null; hlc: string | null }>;
  private readonly outbox: Statement<[], { first: number | null; last: number | null; oldest: string | null }>;
  private readonly deferred: Statement<[], number>;

  constructor(db: Db) {
    this.state = new SyncState(db);
    this.conflicts = db.prepare<[], number>('SELECT count(*) FROM sync_conflicts').pluck();
    this.nodes = db.prepare(
      `SELECT n.name, p.generation, p.last_seq, p.last_seen_at, c.reported_at FROM nodes n
       LEFT JOIN sync_node_progress p ON p.node_id = n.id LEFT JOIN sync_node_clocks c ON c.node_id = n.id
       ORDER BY n.name, p.last_seen_at DESC`,
    );
    this.feed = db.prepare(FEED_HEAD_SQL);
    // The pending commands are counted by their seqs, each end read by the table's key: a
    // count(*) walked every queued row (31 ms a read at 100,000), and the outbox keeps no
    // index to count on (src/decisions/0083-pending-commands-counted-by-seq.md).
    this.outbox = db.prepare(
      `SELECT (SELECT seq FROM outbox WHERE status = 'pending' ORDER BY seq LIMIT 1) AS first,
              (SELECT seq FROM outbox WHERE status = 'pending' ORDER BY seq DESC LIMIT 1) AS last,
              (SELECT created_at FROM outbox WHERE status = 'pending' ORDER BY seq LIMIT 1) AS oldest`,
    );
    this.deferred = db.prepare<[], number>('SELECT count(*) FROM sync_deferred').pluck();
  }

  read(mode: 'store' | 'hub', hubUrl: string | undefined, clock: Clock): SyncStatus {
    const conflicts = this.conflicts.get()!;
    const now = clock();
    const secondsSince = (iso: string | null | undefined) => (iso ? Math.max(0, Math.round((now - Date.parse(iso)) / 1000)) : null);
    if (mode === 'hub') {
      const nodes = lastSeen(this.nodes.all()).map((node) => ({ ...node, seconds_since_seen: secondsSince(node.last_seen_at) }));
      const feed = this.feed.get()!;
      return { mode, feed_last_seq: feed.seq ?? 0, nodes, clock_drift_ms: driftOf(feed.hlc, now), conflicts };
    }
    const { state } = this;
    const outbox = this.outbox.get()!;
    const cursor = state.number('cursor') ?? null;
    const hubLastSeq = state.number('hub_last_seq') ?? null;
    const lagRows = cursor !== null && hubLastSeq !== null ? Math.max(0, hubLastSeq - cursor) : null;
    const hubTime = state.get('hub_time');
    const lastSuccess = state.get('last_success_at') ?? null;
    const lastErrorAt = state.get('last_error_at') ?? null;
    const failedLast = lastErrorAt !== null && (lastSuccess === null || lastErrorAt > lastSuccess);
    // The kept rounds are read only after a failure: a store's report to the hub reads this status on every request.
    const refusedWith = failedLast ? (recentRounds(state)[0]?.hub_status ?? null) : null;
    return {
      mode,
      hub_url: hubUrl ?? null,
      reachable: lastSuccess === null && lastErrorAt === null ? null : !failedLast || refusedWith !== null,
      last_attempt_at: state.get('last_attempt_at') ?? null,
      last_push_at: state.get('last_push_at') ?? null,
      last_pull_at: state.get('last_pull_at') ?? null,
      last_success_at: lastSuccess,
      last_error: failedLast ? (state.get('last_error') ?? null) : null,
      last_error_status: refusedWith,
      outbox: {
        pending: outbox.first === null ? 0 : outbox.last! - outbox.first + 1,
        oldest_pending_age_seconds: secondsSince(outbox.oldest),
        rejected: state.number('rejected_commands') ?? 0,
        replaying: state.get('replay_after') !== undefined || state.get('replay_waiting') !== undefined,
      },
      feed: {
        cursor,
        hub_last_seq: hubLastSeq,
        lag_rows: lagRows,
        lag_seconds: lagRows === null ? null : lagRows === 0 ? 0 : secondsSince(hubTime),
        bootstrapping: state.get('snapshot_position') !== undefined,
        awaiting_upgrade: this.deferred.get()!,
      },
      clock_drift_ms: driftOf(state.get('newest_stamp') ?? null, now),
      clock_skew_ms: state.number('clock_skew_ms') ?? 0,
      conflicts,
    };
  }
}

/** The sync status, read once (the CLI, a test); a SyncStatusReader keeps its statements for the next read. */
export function readSyncStatus(db: Db, mode: 'store' | 'hub', hubUrl: string | undefined, clock: Clock): SyncStatus {
  return new SyncStatusReader(db).read(mode, hubUrl, clock);
}

/**
 * A store is seen when it pushes and when it pulls: a store that bootstrapped and has pushed
 * nothing yet is seen at its pulls. Its newest generation (the first of its rows) takes the
 * newer of its last push and its last pull; an older generation keeps its last push.
 */
function lastSeen(rows: NodeRow[]): Omit<NodeRow, 'reported_at'>[] {
  return rows.map(({ reported_at: reportedAt, ...row }, index) => {
    const newest = index === 0 || rows[index - 1]!.name !== row.name;
    const pulledLater = newest && reportedAt !== null && (row.last_seen_at === null || reportedAt > row.last_seen_at);
    return pulledLater ? { ...row, last_seen_at: reportedAt } : row;
  });
}

function driftOf(stamp: string | null, now: number): number {
  return stamp ? Math.max(0, decodeHlc(stamp).ms - now) : 0;
}
