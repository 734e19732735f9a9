import { spelt } from '../db/dialect.js';
import { NODE_LOCAL } from '../db/node-local.js';
import type { Db } from '../db/open.js';

/**
 * The database's tables, each after the tables it references. SQLite lists them in creation
 * order, which its migrations keep so. PostgreSQL's schema was made in one baseline, its tables
 * in the alphabet's order and their foreign keys after them: a table comes after the longest
 * chain of references that leads to it, and in creation order (its oid) among tables as deep;
 * the depth is bounded, so that a cycle of references cannot hold a hub's start.
 */
const TABLES = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid",
  postgres: `WITH RECURSIVE depths (oid, depth) AS (
               SELECT c.oid, 0 FROM pg_class c WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind = 'r'
               UNION ALL
               SELECT f.conrelid, d.depth + 1 FROM depths d JOIN pg_constraint f ON f.confrelid = d.oid AND f.contype = 'f' AND f.conrelid <> f.confrelid AND d.depth < 100
             )
             SELECT c.relname AS name FROM depths d JOIN pg_class c ON c.oid = d.oid GROUP BY c.oid, c.relname ORDER BY max(d.depth), c.oid`,
};

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
  const tables = db.prepare<[], string>(spelt(db, TABLES)).pluck().all();
  const columnsOf = tableColumns(db);
  return tables.filter((table) => {
    if (NODE_LOCAL.has(table)) return false;
    const columns = new Set(columnsOf(table));
    return columns.has('id') && columns.has('hlc') && columns.has('last_change');
  });
}
