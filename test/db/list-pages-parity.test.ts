/**
 * A list's pages are the same on both engines. PostgreSQL finds a page's rows by the index first
 * and computes their columns after, each row's alone (src/db/list-query.ts); SQLite reads them in
 * one pass. The purchase list, whose columns hold subqueries (the items counted, the customer by
 * assignment): pages near its start and far down it, both directions, ties of the sort field
 * broken by the row, and the count.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { PurchasesRepo } from '../../src/features/purchases/purchases.repo.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';

const PURCHASES = 45;
const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-list-pages-'));
let postgresDatabase: PostgresDatabase;
let sqlite: Db;
let postgres: Db;

/** Purchases in id order (so SQLite's rowids follow their ids), three to a payment time, each with as many items as its number modulo 4. */
function fill(db: Db): void {
  const purchase = db.prepare(
    `INSERT INTO purchases (id, customer_id, store_id, external_purchase_id, bill_number, payment_time, type_id, total_price_minor, currency_id,
       card_number, cashdesk_number, canceled, cancels_purchase_id, bill, state, hlc, last_change)
     VALUES (?, NULL, 'store-1', ?, NULL, ?, NULL, 100, 'CZK', NULL, 1, 0, NULL, '{}', 1, ?, ?)`,
  );
  const item = db.prepare(
    `INSERT INTO purchase_items (id, purchase_id, product_id, external_id, purchase_item_type_id, price_minor, amount_milli, vat_rate, additional_properties, hlc, last_change)
     VALUES (?, ?, NULL, 'x', NULL, 100, 1000, NULL, '[]', ?, ?)`,
  );
  db.transaction(() => {
    for (let n = 0; n < PURCHASES; n += 1) {
      const id = `p${String(n).padStart(3, '0')}`;
      const time = new Date(Date.UTC(2026, 11, 1) + Math.floor(n / 3) * 60_000).toISOString();
      const stamp = `000000000000-0000-${String(n).padStart(8, '0')}`;
      purchase.run(id, `B-${n}`, time, stamp, time);
      for (let k = 0; k < n % 4; k += 1) item.run(`${id}-i${k}`, id, stamp, time);
    }
  })();
}

beforeAll(async () => {
  sqlite = openDatabase(join(folder, 'pages.sqlite'));
  migrate(sqlite);
  postgresDatabase = await freshPostgresDatabase();
  postgres = new PostgresDb(postgresDatabase.url);
  migrate(postgres);
  fill(sqlite);
  fill(postgres);
});

afterAll(async () => {
  sqlite?.close();
  postgres?.close();
  await postgresDatabase?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('a list on SQLite and on PostgreSQL', () => {
  it('gives the same pages of purchases, near the start and far down, either way, with their subqueries’ columns and the count', () => {
    const pages = (db: Db) => {
      const repo = new PurchasesRepo(db);
      return (['ASC', 'DESC'] as const).flatMap((sort_direction) =>
        [0, 10, 20, 40].map((offset) => {
          const page = repo.page({}, { count: 10, offset, sort_field: 'payment_time', sort_direction });
          return { sort_direction, offset, total: page.total, rows: page.items.map((row) => [row.id, row.items_count, row.payment_time]) };
        }),
      );
    };
    const onSqlite = pages(sqlite);
    expect(pages(postgres)).toEqual(onSqlite);
    const descending = onSqlite.find((page) => page.sort_direction === 'DESC' && page.offset === 20)!;
    expect(descending.total).toBe(PURCHASES);
    expect(descending.rows.map((row) => row[0])).toEqual(Array.from({ length: 10 }, (_, index) => `p${String(24 - index).padStart(3, '0')}`));
    expect(descending.rows.map((row) => row[1])).toEqual(Array.from({ length: 10 }, (_, index) => (24 - index) % 4));
  });
});
