/**
 * The sync protocol's answers between a store and its hub: a feed position compacted away, a
 * command history that diverged or skipped a seq, a version the hub does not serve. Each is an
 * `exception` of the catalogue (src/core/errors.ts), and like every answer built in the catalogue's two files.
 */
import { ABOUT_BLANK, AppError } from './errors.js';

/** A store pulled from before the hub's compacted feed (src/sync/hub/feed-compaction.ts): it must bootstrap again. */
export function cursorExpired(after: number, floor: number): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'sync_cursor_expired_exception',
    title: 'Feed position expired',
    detail: `The feed before seq ${floor} is compacted; bootstrap again from a snapshot`,
    error_data: { after, floor },
  });
}

/** A store pushed a seq its generation already used for another command (src/sync/hub/hub-commands.ts). */
export function generationDiverged(seq: number): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'sync_generation_diverged_exception',
    title: 'Command history diverged',
    detail: `Seq ${seq} of this generation was applied for another command; start a new generation`,
    error_data: { seq },
  });
}

export function sequenceGap(expected: number, got: number): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'sync_sequence_gap_exception',
    title: 'Command sequence gap',
    detail: `Expected command seq ${expected}, got ${got}`,
    error_data: { expected_seq: expected, got_seq: got },
  });
}

/** A store speaking a protocol or schema version the hub does not serve. */
export function versionMismatch(hub: { protocol: number; schema: number }, store: { protocol: number; schema: number }): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'sync_version_mismatch_exception',
    title: 'Sync version mismatch',
    detail: `This hub speaks protocol ${hub.protocol} and serves schema versions ${hub.schema - 1} and ${hub.schema}`,
    error_data: { protocol: hub.protocol, schema_version: hub.schema, store_protocol: store.protocol, store_schema_version: store.schema },
  });
}

/** What a store asks of its hub at once: pushes (and replays), or snapshots (src/sync/hub/sync-limits.ts). */
export type SyncWork = 'push' | 'snapshot';

/** A store asked for more at once than the hub serves one node, or asked again before the Retry-After it was given. */
export function nodeBusy(work: SyncWork, limit: number, retryAfterSeconds: number): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'too_many_requests_exception',
      title: 'Too many requests',
      detail: `This node has ${limit} ${work === 'push' ? 'pushes' : 'snapshots'} in flight at most, and waits for the Retry-After it was given; retry after ${retryAfterSeconds} s`,
      error_data: { work, limit, retry_after: retryAfterSeconds },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** A store started as many snapshots in the last minute as the hub serves one node. */
export function snapshotsTooOften(limit: number, retryAfterSeconds: number): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'too_many_requests_exception',
      title: 'Too many requests',
      detail: `This node starts ${limit} snapshots a minute at most; retry after ${retryAfterSeconds} s`,
      error_data: { work: 'snapshot', limit, retry_after: retryAfterSeconds },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** A store's reads took more of the hub's event loop than its share (src/sync/hub/read-budget.ts). */
export function readsPastShare(msPerSecond: number, retryAfterSeconds: number): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'too_many_requests_exception',
      title: 'Too many requests',
      detail: `This node's pulls and history reads take ${msPerSecond} ms of the hub's time a second at most; retry after ${retryAfterSeconds} s`,
      error_data: { work: 'read', limit: msPerSecond, retry_after: retryAfterSeconds },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** The hub serves as many of a work at once as it is configured to, from every store together. */
export function hubBusy(work: SyncWork, limit: number, retryAfterSeconds: number): AppError {
  return new AppError(
    {
      type: ABOUT_BLANK,
      exception: 'service_unavailable_exception',
      title: 'Hub busy',
      detail: `The hub serves ${limit} ${work === 'push' ? 'pushes' : 'snapshots'} at once from all stores; retry after ${retryAfterSeconds} s`,
      error_data: { work, limit, retry_after: retryAfterSeconds },
    },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** A push whose commands carry more row changes than the hub takes in one request. */
/** A push or replay whose commands carry rows: what stores of earlier protocols sent, which no hub writes (src/sync/hub/push-body.ts). */
export function rowsRefused(index: number): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'sync_rows_refused_exception',
    title: 'Rows refused',
    detail: `Command ${index} carries row changes: a command is its operation alone (sync protocol 3); upgrade the store`,
    error_data: { command_index: index },
  });
}

/** The hub stopped while it applied a push (src/sync/hub/pushes-in-turns.ts): what it committed stays, and the store pushes again. */
export function hubStopped(): AppError {
  return new AppError({
    type: ABOUT_BLANK,
    exception: 'service_unavailable_exception',
    title: 'Hub stopped',
    detail: 'The hub stopped while it applied this push; push again once it is back',
    error_data: {},
  });
}
