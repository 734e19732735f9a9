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

export function checksumTables(db: Db, { all = false }: { all?: boolean } = {}): Record<string, TableChecksum> {
  const result: Record<string, TableChecksum> = {};
  const columnsOf = tableColumns(db);
  for (const table of replicatedTables(db).filter((name) => all || heldWhole(name))) {
    result[table] = all ? wholeRows(db, table, columnsOf(table).sort()) : stamps(db, table);
  }
  return result;
}

function stamps(db: Db, table: string): TableChecksum {
  const hash = createHash('sha256');
  let rows = 0;
  for (const row of db.prepare<[], { id: string; hlc: string }>(`SELECT id, hlc FROM ${table} ORDER BY id`).iterate()) {
    hash.update(`${row.id}:${row.hlc}\n`);
    rows += 1;
  }
  return { rows, sha256: hash.digest('hex') };
}

function wholeRows(db: Db, table: string, columns: string[]): TableChecksum {
  const hash = createHash('sha256');
  let rows = 0;
  const listed = columns.map((column) => `"${column}"`).join(', ');
  for (const row of db.prepare<[], Record<string, unknown>>(`SELECT ${listed} FROM ${table} ORDER BY id`).iterate()) {
    hash.update(`${JSON.stringify(columns.map((column) => row[column]))}\n`);
    rows += 1;
  }
  return { rows, sha256: hash.digest('hex') };
}
