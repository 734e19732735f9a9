/**
 * A checksum per table every node holds whole (the chain and customer-state scopes,
 * src/sync/protocol/scopes.ts) over every row's id and HLC stamp: equal checksums on two nodes mean
 * they hold the same versions of the same rows. Origin and store tables differ by design — a store
 * holds its own facts and its own stores' users only — so they are left out. Operators compare nodes with `loyaltyd
 * sync checksum`; the sync tests use it to prove convergence.
 *
 * With `all`, every replicated table, the facts too (purchases and their items, point and credit
 * records, voucher uses, events), over every column of every row: what compares two hubs, a
 * restored or moved one with its source, on either engine. Columns are taken in their names'
 * order (the engines' schemas list them in different orders) and each row's values as JSON,
 * which both engines' values give alike (integers as numbers, text, null, bytes).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { replicatedTables, tableColumns } from '../replicated-tables.js';
import { heldWhole } from './scopes.js';

export interface TableChecksum {
  rows: number;
  sha256: string;
}

/** Rows a checksum reads at once, in the order of their ids: what PostgreSQL's driver holds of a result, which it reads whole. */
const PAGE_ROWS = 5_000;

export function checksumTables(db: Db, { all = false }: { all?: boolean } = {}): Record<string, TableChecksum> {
  const result: Record<string, TableChecksum> = {};
  const columnsOf = tableColumns(db);
  for (const table of replicatedTables(db).filter((name) => all || heldWhole(name))) {
    if (!all) {
      result[table] = checksumOf(db, table, ['id', 'hlc'], (row) => `${String(row.id)}:${String(row.hlc)}`);
      continue;
    }
    const columns = columnsOf(table).sort();
    result[table] = checksumOf(db, table, columns, (row) => JSON.stringify(columns.map((column) => row[column])));
  }
  return result;
}

/** A SHA-256 over a line per row, in the order of the rows' ids, read a page at a time. */
function checksumOf(db: Db, table: string, columns: string[], line: (row: Record<string, unknown>) => string): TableChecksum {
  const listed = columns.map((column) => `"${column}"`).join(', ');
  const page = db.prepare<[string, number], Record<string, unknown>>(`SELECT ${listed} FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`);
  const hash = createHash('sha256');
  let rows = 0;
  for (let after = ''; ;) {
    const read = page.all(after, PAGE_ROWS);
    for (const row of read) hash.update(`${line(row)}\n`);
    rows += read.length;
    if (read.length < PAGE_ROWS) break;
    after = String(read.at(-1)!.id);
  }
  return { rows, sha256: hash.digest('hex') };
}
