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
