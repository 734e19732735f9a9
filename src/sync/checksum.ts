/**
 * A checksum per replicated table over every row's id and HLC stamp: equal checksums on
 * two nodes mean they hold the same versions of the same rows. Operators compare nodes
 * with `loyaltyd sync checksum`; the sync tests use it to prove convergence.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/open.js';
import { replicatedTables } from './replicated-tables.js';

export interface TableChecksum {
  rows: number;
  sha256: string;
}

export function checksumTables(db: Db): Record<string, TableChecksum> {
  const result: Record<string, TableChecksum> = {};
  for (const table of replicatedTables(db)) {
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
