/**
 * How a store lists what its sync could not take as it was (sync_conflicts, `sync conflicts`):
 * a command the hub rejected, a pulled change it could not apply, a replayed row the hub
 * refused. Each is listed once by its id; the fold conflicts (src/sync/fold-conflicts.ts)
 * refresh theirs instead. The newest are read by the index of their time: a store's report
 * names them on every request to the hub, and a node lists conflicts for as long as it runs.
 */
import type { Statement } from '../db/engine.js';
import type { Db } from '../db/open.js';

/** Parameters: id, kind, entity, entity_id, detail (JSON), detected_at. */
export type ConflictListing = Statement<[string, string, string, string, string, string]>;

export function conflictListing(db: Db): ConflictListing {
  return db.prepare('INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
}

/** The newest conflicts first, `columns` of each, by the index of their time; parameter: how many. */
export function newestConflictsSql(columns: string): string {
  return `SELECT ${columns} FROM sync_conflicts ORDER BY detected_at DESC LIMIT ?`;
}

/** newestConflictsSql, prepared. */
export function newestConflicts<T>(db: Db, columns: string): Statement<[number], T> {
  return db.prepare<[number], T>(newestConflictsSql(columns));
}
