import { spelt } from '../db/dialect.js';
import { NODE_LOCAL } from '../db/node-local.js';
import type { Db } from '../db/open.js';
import { tablesInOrder } from '../db/table-order.js';

/** A table's columns in their order, from each engine's catalogue; none for a table that does not exist. */
const COLUMNS = {
  sqlite: 'SELECT name FROM pragma_table_info(?)',
  postgres: `SELECT column_name AS name FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
};

/** Reads a table's column names, in their order, from the database's catalogue. */
export function tableColumns(db: Db): (table: string) => string[] {
  const columns = db.prepare<[string], string>(spelt(db, COLUMNS)).pluck();
  return (table) => columns.all(table);
}

/**
 * The replicated tables, in an order where every table comes after the tables it references,
 * so a snapshot loads without foreign-key failures.
 */
export function replicatedTables(db: Db): string[] {
  const tables = tablesInOrder(db);
  const columnsOf = tableColumns(db);
  return tables.filter((table) => {
    if (NODE_LOCAL.has(table)) return false;
    const columns = new Set(columnsOf(table));
    return columns.has('id') && columns.has('hlc') && columns.has('last_change');
  });
}
