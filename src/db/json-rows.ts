/**
 * Rows handed to a statement as one parameter, the JSON text of an array of arrays (each the
 * row's values in the order of `columns`), so that a statement of any number of rows is
 * prepared once and run in one call: on PostgreSQL one round trip where a statement a row
 * took one each. Each engine reads the array with its own function, SQLite's `json_each`,
 * PostgreSQL's `json_array_elements`, in the array's order; integers come back as integers on
 * both (a STRICT table of SQLite takes nothing else in an INTEGER column).
 *
 * An upsert of such rows (`INSERT … SELECT … FROM (${jsonRows(…)}) AS given WHERE true ON
 * CONFLICT …`, the WHERE telling SQLite's parser where the SELECT ends) must not name one key
 * twice: PostgreSQL refuses to update a row twice in one statement.
 */
import { spelt } from './dialect.js';
import type { Db } from './engine.js';

export type JsonColumnType = 'text' | 'integer';

/** A subquery of the rows in the JSON parameter, each column named as in `columns`. */
export function jsonRows(db: Db, columns: Record<string, JsonColumnType>): string {
  const named = Object.entries(columns);
  return spelt(db, {
    sqlite: `SELECT ${named.map(([name], index) => `value ->> ${index} AS ${name}`).join(', ')} FROM json_each(?)`,
    postgres: `SELECT ${named
      .map(([name, type], index) => `CAST(given_row ->> ${index} AS ${type === 'integer' ? 'bigint' : 'text'}) AS ${name}`)
      .join(', ')} FROM json_array_elements(CAST(? AS json)) AS given_rows(given_row)`,
  });
}
