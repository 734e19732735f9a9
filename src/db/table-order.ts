import { spelt } from './dialect.js';
import type { Db } from './engine.js';

/**
 * The database's tables, each after the tables it references. SQLite lists them in creation
 * order, which its migrations keep so. PostgreSQL's schema was made in one baseline, its tables
 * in the alphabet's order and their foreign keys after them: a table comes after the longest
 * chain of references that leads to it, and in creation order (its oid) among tables as deep;
 * the depth is bounded, so that a cycle of references cannot hold a hub's start.
 */
const TABLES = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY rowid",
  postgres: `WITH RECURSIVE depths (oid, depth) AS (
               SELECT c.oid, 0 FROM pg_class c WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind = 'r'
               UNION ALL
               SELECT f.conrelid, d.depth + 1 FROM depths d JOIN pg_constraint f ON f.confrelid = d.oid AND f.contype = 'f' AND f.conrelid <> f.confrelid AND d.depth < 100
             )
             SELECT c.relname AS name FROM depths d JOIN pg_class c ON c.oid = d.oid GROUP BY c.oid, c.relname ORDER BY max(d.depth), c.oid`,
};

/** Every table of the database, each after the tables it references. */
export function tablesInOrder(db: Db): string[] {
  return db.prepare<[], string>(spelt(db, TABLES)).pluck().all();
}
