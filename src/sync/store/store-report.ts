/**
 * The figures a store reports to its hub on every sync request (push, pull, snapshot), in the
 * `x-loyaltyd-report` header: what only the store knows — its outbox, its lag behind the
 * feed, the commands the hub rejected and the conflicts it lists — so that the hub's status
 * page and metrics show the fleet as each store last saw itself. A store of an older version
 * sends no header and the hub shows nothing for it; fields a newer store adds are ignored.
 */
import { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { SyncStatusReader } from '../status.js';
import { newestConflicts } from '../conflict-listing.js';

/** Conflicts a report names, newest first: the hub's page of the store lists them. */
export const REPORTED_CONFLICTS = 5;

const Count = z.number().int().min(0);

export const ReportedConflict = z.object({
  kind: z.string().max(100),
  entity: z.string().max(100),
  entity_id: z.string().max(100),
  detected_at: z.string().max(40),
});
export type ReportedConflict = z.infer<typeof ReportedConflict>;

export const StoreReport = z.object({
  outbox_pending: Count,
  outbox_oldest_age_seconds: Count.nullable(),
  feed_lag_rows: Count.nullable(),
  feed_lag_seconds: Count.nullable(),
  rejected_commands: Count,
  conflicts: Count,
  recent_conflicts: z.array(ReportedConflict).max(REPORTED_CONFLICTS),
});
export type StoreReport = z.infer<typeof StoreReport>;

/** Reads the store's report, with its statements prepared once: it goes with every request to the hub. */
export function storeReporter(db: Db, clock: Clock): () => StoreReport {
  const statuses = new SyncStatusReader(db);
  const recentConflicts = newestConflicts<ReportedConflict>(db, 'kind, entity, entity_id, detected_at');
  return () => {
    const status = statuses.read('store', undefined, clock);
    if (status.mode !== 'store') throw new Error('a store reports its own sync status');
    return {
      outbox_pending: status.outbox.pending,
      outbox_oldest_age_seconds: status.outbox.oldest_pending_age_seconds,
      feed_lag_rows: status.feed.lag_rows,
      feed_lag_seconds: status.feed.lag_seconds,
      rejected_commands: status.outbox.rejected,
      conflicts: status.conflicts,
      recent_conflicts: recentConflicts.all(REPORTED_CONFLICTS),
    };
  };
}

export function encodeReport(report: StoreReport): string {
  return Buffer.from(JSON.stringify(report)).toString('base64url');
}

/** The report a header carries, or undefined when it is not one (the hub then keeps the last good one). */
export function decodeReport(header: string): StoreReport | undefined {
  try {
    const parsed = StoreReport.safeParse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
