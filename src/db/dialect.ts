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

/** The spelling of `db`'s engine. */
export function spelt<T>(db: Db, spellings: Record<Dialect, T>): T {
  return spellings[dialectOf(db)];
}
