/**
 * A list of ids handed to a statement as one parameter, a JSON array of text, so that a
 * statement is prepared once whatever the list's length. Each engine reads the array as rows
 * with its own function: SQLite's `json_each`, PostgreSQL's `json_array_elements_text`, both
 * giving each element as text in a column `value`.
 */
import { spelt } from './dialect.js';
import type { Db } from './engine.js';

/** A subquery of the elements of the JSON array parameter, for `id IN (${jsonListRows(db)})`. */
export function jsonListRows(db: Db): string {
  return spelt(db, {
    sqlite: 'SELECT value FROM json_each(?)',
    postgres: 'SELECT value FROM json_array_elements_text(CAST(? AS json)) AS list(value)',
  });
}
