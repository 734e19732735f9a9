/**
 * The kind of node a data folder holds, hub or store, kept in meta (`mode`): written when
 * the database is created, and at the first start of a folder made by a release that did
 * not write it. A command for one kind refuses the other's folder (src/cli/data-folder.ts).
 */
import type { Db } from './open.js';

export type NodeMode = 'hub' | 'store';

const MODE_KEY = 'mode';

/** Records the folder's mode unless one is recorded already. */
export function recordMode(db: Db, mode: NodeMode): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING').run(MODE_KEY, mode);
}

/**
 * The mode the database recorded, or for one that recorded none, what it holds says when that
 * is sure: only a hub publishes customer states (its sweep's mark) or registers store nodes;
 * only a store follows a hub's feed (its cursor). Otherwise undefined.
 */
export function folderMode(db: Db): NodeMode | undefined {
  const recorded = db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck().get(MODE_KEY);
  if (recorded === 'hub' || recorded === 'store') return recorded;
  const hubMarks = db.prepare("SELECT 1 FROM meta WHERE key = 'customer_states.swept_at' UNION ALL SELECT 1 FROM nodes LIMIT 1").get() !== undefined;
  const storeMarks = db.prepare("SELECT 1 FROM meta WHERE key IN ('sync.cursor', 'sync.snapshot_position')").get() !== undefined;
  if (hubMarks === storeMarks) return undefined;
  return hubMarks ? 'hub' : 'store';
}
