/**
 * SQL that the two engines spell differently, written once for each beside its twin and
 * chosen by the database it runs on (src/decisions/0106). Everything else is written once, in
 * the SQL both take: `ON CONFLICT … DO NOTHING` or `DO UPDATE` with the table's name before a
 * column of the row kept, `IS NOT DISTINCT FROM` for a comparison that matches NULL, an alias
 * on every subquery in FROM, `true` and `false` for booleans, single quotes around text.
 */
import type { Db } from './engine.js';
import { isSqlite } from './sqlite.js';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Db): Dialect {
  return isSqlite(db) ? 'sqlite' : 'postgres';
}

/**
 * Each SQLite spelling `spelt` has given, with its PostgreSQL twin. The test suite, which runs
 * on SQLite, reads it to put each statement it prepares into PostgreSQL's words too and check
 * that PostgreSQL takes them (test/db/statement-parity.test.ts). It holds one entry a twin the
 * code writes.
 */
export const TWINS = new Map<string, string>();

/** The spelling of `db`'s engine; a fragment of SQL is spelt here, never by branching on the dialect, so its twin is known. */
export function spelt<T>(db: Db, spellings: Record<Dialect, T>): T {
  if (typeof spellings.sqlite === 'string' && typeof spellings.postgres === 'string' && spellings.sqlite !== spellings.postgres)
    TWINS.set(spellings.sqlite, spellings.postgres);
  return spellings[dialectOf(db)];
}
