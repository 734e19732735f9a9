/**
 * A hub restored from a backup keeps the stores' node registry it had when it was stopped:
 * the nodes and their secrets, the stores each serves, their retirements, and which node
 * speaks for which stamp origin. A backup is hours or days old, and an operator who added a
 * store, bound it or retired one since would otherwise find it silently undone: a new store's
 * secret refused, a retired one's accepted again, its old clock holding the horizon back. The
 * registry says who may push; what was pushed comes back by the stores' replays.
 */
import type { Db } from '../../db/open.js';
import { sqliteOnly } from '../../db/sqlite.js';

export interface KeptRegistry {
  nodes: number;
  bindings: number;
  origins: number;
}

/**
 * Puts the registry of the database at `replaced` into the restored `db`, in one transaction:
 * a restore of a hub's SQLite file, which attaches the file it replaced.
 */
export function keepNodeRegistry(restored: Db, replaced: string): KeptRegistry {
  const db = sqliteOnly(restored, "keeping a replaced database file's node registry");
  db.prepare('ATTACH DATABASE ? AS replaced').run(replaced);
  try {
    return db.transaction((): KeptRegistry => {
      db.prepare('DELETE FROM node_stores').run();
      const nodes = db
        .prepare(
          `INSERT INTO nodes (id, name, secret_hash, state, hlc, last_change) SELECT id, name, secret_hash, state, hlc, last_change FROM replaced.nodes WHERE true
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, secret_hash = excluded.secret_hash, state = excluded.state, hlc = excluded.hlc, last_change = excluded.last_change`,
        )
        .run().changes;
      const bindings = db
        .prepare(
          'INSERT INTO node_stores (id, node_id, store_id, hlc, last_change) SELECT id, node_id, store_id, hlc, last_change FROM replaced.node_stores',
        )
        .run().changes;
      const origins = db
        .prepare(
          'INSERT OR IGNORE INTO sync_node_origins (origin, node_id, first_seen_at) SELECT origin, node_id, first_seen_at FROM replaced.sync_node_origins',
        )
        .run().changes;
      // A node retired since the backup holds the customer states' horizon back no more.
      db.prepare('DELETE FROM sync_node_clocks WHERE node_id IN (SELECT id FROM nodes WHERE state = 0)').run();
      return { nodes, bindings, origins };
    })();
  } finally {
    db.prepare('DETACH DATABASE replaced').run();
  }
}
