/**
 * A fresh store loads the snapshot with its tables' secondary indexes dropped and builds them
 * once the snapshot is in: inserting a customer with their card into the nine secondary
 * indexes of the two tables, keys in random order, cost more than twice the insert without
 * them and the build after (test/bench/README.md). Only a store
 * that holds nothing yet does so — one bootstrapping again serves tills from its tables — and
 * never for an index a query names (INDEXED BY) or a unique one, which the load's upserts need.
 * The dropped definitions are kept in sync state, so a bootstrap killed midway builds them when
 * its resumed load completes.
 */
import { z } from 'zod';
import type { Db } from '../../db/open.js';
import { holdsRows } from './bootstrap-sweep.js';
import type { SyncState } from '../sync-state.js';

/** Indexes the cash desk's statements name with INDEXED BY (src/loyalty/balance-reader.ts). */
const NAMED_BY_QUERIES = new Set(['cards_for_checkout']);

const IndexDefinition = z.object({ name: z.string(), sql: z.string() });
type IndexDefinition = z.infer<typeof IndexDefinition>;

/** Drops the secondary indexes of `tables` when the store holds none of their rows and no load has begun. */
export function dropIndexesIfFresh(db: Db, state: SyncState, tables: string[]): void {
  if (state.get('bootstrap_indexes') !== undefined || state.get('snapshot_position') !== undefined) return;
  if (holdsRows(db, tables)) return;
  const indexes = db
    .prepare<[string], IndexDefinition>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'
       AND tbl_name IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(tables))
    .filter((index) => !NAMED_BY_QUERIES.has(index.name));
  db.transaction(() => {
    state.set('bootstrap_indexes', JSON.stringify(indexes));
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  })();
}

/** Builds the indexes dropIndexesIfFresh dropped. Runs inside the transaction that ends the bootstrap. */
export function rebuildIndexes(db: Db, state: SyncState): void {
  const saved = state.get('bootstrap_indexes');
  if (saved === undefined) return;
  for (const index of z.array(IndexDefinition).parse(JSON.parse(saved))) db.exec(index.sql);
  state.clear('bootstrap_indexes');
}
