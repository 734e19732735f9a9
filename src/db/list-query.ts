/**
 * Collection queries: optional filters joined with AND, an ORDER BY from the paging
 * parameters, LIMIT/OFFSET, and a count of the matches for `total_items` that stops at the
 * last item paging can reach (src/decisions/0008-list-paging.md). A list sorts only by fields an index keeps
 * in order, ties broken by the listed table's row: its rowid on SQLite, which every index
 * holds, its primary key `id` on PostgreSQL. So a page reads at most its offset and count in
 * index entries, never the whole table. Statements are
 * prepared once per distinct SQL text and kept, up to `LIST_STATEMENTS_KEPT` a list.
 */
import { invalidParam } from '../core/errors.js';
import { MAX_COUNT, MAX_OFFSET, type Page, type Paging } from '../core/paging.js';
import { spelt, type Dialect } from './dialect.js';
import type { Db } from './engine.js';
import { Statements } from './statements.js';
import type { StoredValue } from './write-path.js';

/** One SQL condition with its parameters; `undefined` when the filter was not given. */
export type Filter = { sql: string | Record<Dialect, string>; params: StoredValue[] } | undefined;

/** The most matches `total_items` counts: every item a page can reach, and no further. */
export const MAX_TOTAL_ITEMS = MAX_OFFSET + MAX_COUNT;

/** A list's texts: one a combination of the filters given, sort field and direction, and one count a combination of filters. */
export const LIST_STATEMENTS_KEPT = 256;

export interface ListSpec<Field extends string = string> {
  /** FROM clause, joins included. */
  from: string;
  select: string;
  filters: Filter[];
  /** Wire field → SQL expression, for `sort_field`: each an indexed column. */
  sortable: Record<Field, string>;
  defaultSort: NoInfer<Field>;
  /** The listed table's alias in `from`, when it has one: its row breaks ties, so paging is stable and needs no sort beside the index. */
  listedAs?: string;
}

export class ListQueries {
  private readonly statements: Statements;

  constructor(private readonly db: Db) {
    this.statements = new Statements(db, LIST_STATEMENTS_KEPT);
  }

  page<T, Field extends string = string>(spec: ListSpec<Field>, paging: Paging): Page<T> {
    const given = spec.filters.filter((filter) => filter !== undefined);
    const where = given.length
      ? `WHERE ${given.map((filter) => (typeof filter.sql === 'string' ? filter.sql : spelt(this.db, filter.sql))).join(' AND ')}`
      : '';
    const params = given.flatMap((filter) => filter.params);
    const field = paging.sort_field ?? spec.defaultSort;
    // Own fields only: `constructor` or `toString` must not find Object.prototype's.
    const sortColumn = Object.hasOwn(spec.sortable, field) ? spec.sortable[field as Field] : undefined;
    if (!sortColumn) {
      throw invalidParam('sort_field', 'not_allowed_value', field, `Sortable fields: ${Object.keys(spec.sortable).join(', ')}`);
    }
    const direction = paging.sort_direction;
    const listed = spec.listedAs ? `${spec.listedAs}.` : '';
    const order = `ORDER BY ${sortColumn} ${direction}, ${spelt(this.db, { sqlite: `${listed}rowid`, postgres: `${listed}id` })} ${direction}`;
    // PostgreSQL computes a row's columns (a list's subqueries among them) before OFFSET skips
    // it, so a page far down a list would compute every row before it: it finds the page's rows
    // first, by the index, then the columns of each of them alone (LATERAL: a row at a time,
    // whatever the plan guesses of a LIMIT given as a parameter). SQLite skips a row before
    // computing its columns.
    const page = spelt(this.db, {
      sqlite: `SELECT ${spec.select} FROM ${spec.from} ${where} ${order} LIMIT ? OFFSET ?`,
      postgres:
        `SELECT listed_row.* FROM (SELECT ${sortColumn} AS page_sort, ${listed}id AS page_id FROM ${spec.from} ${where} ${order} LIMIT ? OFFSET ?) AS page ` +
        `CROSS JOIN LATERAL (SELECT ${spec.select} FROM ${spec.from} WHERE ${listed}id = page.page_id) AS listed_row ` +
        `ORDER BY page.page_sort ${direction}, page.page_id ${direction}`,
    });
    const rows = this.statements.get(page).all(...params, paging.count, paging.offset) as T[];
    const total = (
      this.statements.get(`SELECT count(*) AS n FROM (SELECT 1 FROM ${spec.from} ${where} LIMIT ?) AS reached`).get(...params, MAX_TOTAL_ITEMS) as {
        n: number;
      }
    ).n;
    return { items: rows, total };
  }
}

export function equals(column: string, value: StoredValue | undefined): Filter {
  return value === undefined ? undefined : { sql: `${column} = ?`, params: [value] };
}

/** Substring match, case-insensitive in ASCII letters: SQLite's LIKE, PostgreSQL's ILIKE (its databases' C collation folds no other letter either). */
export function contains(column: string, value: string | undefined): Filter {
  if (value === undefined) return undefined;
  const escaped = value.replace(/[\\%_]/g, (character) => `\\${character}`);
  return { sql: { sqlite: `${column} LIKE ? ESCAPE '\\'`, postgres: `${column} ILIKE ? ESCAPE '\\'` }, params: [`%${escaped}%`] };
}

export function oneOf(column: string, values: StoredValue[] | undefined): Filter {
  if (values === undefined || values.length === 0) return undefined;
  return { sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: values };
}

export function atLeast(column: string, value: StoredValue | undefined): Filter {
  return value === undefined ? undefined : { sql: `${column} >= ?`, params: [value] };
}

export function atMost(column: string, value: StoredValue | undefined): Filter {
  return value === undefined ? undefined : { sql: `${column} <= ?`, params: [value] };
}
