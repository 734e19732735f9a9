import { NODE_LOCAL } from '../db/node-local.js';
import type { Db } from '../db/open.js';

/**
 * The replicated tables, in creation order — which is also an order where every table
 * comes after the tables it references, so a snapshot loads without foreign-key failures.
 */
export function replicatedTables(db: Db): string[] {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
    .all()
    .map((table) => table.name);
  return tables.filter((table) => {
    if (NODE_LOCAL.has(table)) return false;
    const columns = new Set(
      db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        .all()
        .map((c) => c.name),
    );
    return columns.has('id') && columns.has('hlc') && columns.has('last_change');
  });
}
