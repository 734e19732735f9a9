/**
 * A checksum per table every node holds whole (the chain and customer-state scopes,
 * src/sync/protocol/scopes.ts) over every row's id and HLC stamp: equal checksums on two nodes mean
 * they hold the same versions of the same rows. Origin and store tables differ by design — a store
 * holds its own facts and its own stores' users only — so they are left out. Operators compare nodes with `loyaltyd
 * sync checksum`; the sync tests use it to prove convergence.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { replicatedTables } from '../replicated-tables.js';
import { heldWhole } from './scopes.js';

export interface TableChecksum {
  rows: number;
  sha256: string;
}

export function checksumTables(db: Db): Record<string, TableChecksum> {
  const result: Record<string, TableChecksum> = {};
  for (const table of replicatedTables(db).filter(heldWhole)) {
    const hash = createHash('sha256');
    let rows = 0;
    for (const row of db.prepare(`SELECT id, hlc FROM ${table} ORDER BY id`).iterate() as IterableIterator<{ id: string; hlc: string }>) {
      hash.update(`${row.id}:${row.hlc}\n`);
      rows += 1;
    }
    result[table] = { rows, sha256: hash.digest('hex') };
  }
  return result;
}
