/**
 * The query planner's statistics kept in step with the tables (src/db/statistics.ts), on a
 * node's real file: statistics taken while the customers were a hundred are taken again once
 * they are ten thousand — when the node opens, and while it serves.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import type { Db } from '../../src/db/open.js';
import { startStatisticsRefresh } from '../../src/db/statistics.js';
import { databaseFile, openNode } from '../../src/root/node.js';
import { hex } from '../support/ids.js';
import { tempDir } from '../support/server.js';
import { waitFor } from '../support/wait.js';

const cleanups: (() => unknown)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function nodeFolder(): string {
  const folder = tempDir('loyaltyd-statistics-');
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function addCustomers(db: Db, from: number, count: number): void {
  const insert = db.prepare('INSERT INTO customers (id, first_name, last_name, hlc, last_change) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = from; i < from + count; i += 1) insert.run(`c0${hex(i, 24)}`, `First${i}`, `Last${i}`, '0', new Date().toISOString());
  })();
}

/** The rows sqlite_stat1 says the customers' key holds. */
function customersInStatistics(db: Db): number {
  const stat = db.prepare<[], string | undefined>("SELECT stat FROM sqlite_stat1 WHERE idx = 'sqlite_autoindex_customers_1'").pluck().get();
  return Number(stat?.split(' ')[0] ?? 0);
}

/** A node's folder whose statistics were taken with a hundred customers, to which ten thousand more were then added. */
function outgrownStatistics(folder: string): void {
  const node = openNode({ data_dir: folder, mode: 'store' }, systemClock);
  addCustomers(node.db, 0, 100);
  node.db.exec('ANALYZE');
  expect(customersInStatistics(node.db)).toBe(100);
  node.close();
  const db = new Database(databaseFile(folder));
  addCustomers(db, 100, 10_000);
  db.close();
}

describe('the query planner statistics', () => {
  it('are taken again when a node opens its file after its tables outgrew them', () => {
    const folder = nodeFolder();
    outgrownStatistics(folder);
    const node = openNode({ data_dir: folder, mode: 'store' }, systemClock);
    cleanups.push(() => node.close());
    expect(customersInStatistics(node.db)).toBeGreaterThanOrEqual(10_000);
  });

  it('are taken again while a node serves, once its tables have outgrown them', async () => {
    const folder = nodeFolder();
    const node = openNode({ data_dir: folder, mode: 'store' }, systemClock);
    cleanups.push(() => node.close());
    addCustomers(node.db, 0, 100);
    node.db.exec('ANALYZE');
    cleanups.push(startStatisticsRefresh(node.db, pino({ level: 'silent' }), 50));
    addCustomers(node.db, 100, 10_000);
    await waitFor('the statistics taken again', () => customersInStatistics(node.db) >= 10_000);
  });
});
