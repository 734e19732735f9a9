/**
 * The triggers that keep derived rows do the same on both engines (SQLite's migrations and
 * PostgreSQL's PL/pgSQL twins, src/db/migrations/postgres/): the same writes to point and
 * credit records and customer states leave the same ledgers, a program change the same
 * history row, a product the same catalogue version.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { migrate } from '../../src/db/migrate.js';
import { openDatabase } from '../../src/db/open.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';

const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-triggers-'));
let postgresDatabase: PostgresDatabase;
const engines: Db[] = [];

beforeAll(async () => {
  postgresDatabase = await freshPostgresDatabase();
  engines.push(openDatabase(join(folder, 'triggers.sqlite')), new PostgresDb(postgresDatabase.url));
  for (const db of engines) migrate(db);
});

afterAll(async () => {
  for (const db of engines) db.close();
  await postgresDatabase?.drop();
  rmSync(folder, { recursive: true, force: true });
});

const STAMP = (n: number) => `2026-12-01T10:00:00.${String(n).padStart(3, '0')}Z-0000-node`;

/** The writes, the same on each engine, in one transaction each as the write path makes them. */
function writeLedgerHistory(db: Db): void {
  const customer = db.prepare("INSERT INTO customers (id, hlc, last_change) VALUES (?, ?, '2026-12-01T10:00:00Z')");
  const point = db.prepare(
    "INSERT INTO point_records (id, customer_id, kind, points_milli, valid_to, created_at, hlc, last_change) VALUES (?, ?, ?, ?, '2027-12-31', '2026-12-01T10:00:00Z', ?, '2026-12-01T10:00:00Z')",
  );
  const credit = db.prepare(
    "INSERT INTO credit_records (id, customer_id, kind, amount_minor, created_at, hlc, last_change) VALUES (?, ?, ?, ?, '2026-12-01T10:00:00Z', ?, '2026-12-01T10:00:00Z')",
  );
  db.transaction(() => {
    customer.run('c1', STAMP(0));
    customer.run('c2', STAMP(0));
    customer.run('c3', STAMP(0));
  })();
  db.transaction(() => {
    point.run('p1', 'c1', 'collection', 12_500, STAMP(1));
    point.run('p2', 'c1', 'redemption', 2_000, STAMP(2));
    point.run('p3', 'c1', 'collection', 700, STAMP(3));
    credit.run('k1', 'c1', 'collection', 5_000, STAMP(4));
    credit.run('k2', 'c1', 'redemption', 1_250, STAMP(5));
  })();
  db.prepare('UPDATE point_records SET state = 0 WHERE id = ?').run('p2');
  db.prepare('UPDATE point_records SET customer_id = ? WHERE id = ?').run('c2', 'p3');
  db.prepare('DELETE FROM credit_records WHERE id = ?').run('k2');
  db.prepare(
    "INSERT INTO customer_states (id, horizon, lots, debt_milli, tail, credit_minor, credit_tail, hlc, last_change) VALUES ('c1', ?, '[]', 0, '[]', 0, '[]', ?, '2026-12-01T10:00:00Z')",
  ).run(STAMP(1), STAMP(9));
  db.transaction(() => {
    for (let n = 0; n < 70; n++) point.run(`q${n}`, 'c3', 'collection', 1_000 + n, STAMP(100 + n));
  })();
  db.prepare("INSERT INTO program_rules (id, kind, body, hlc, last_change) VALUES ('00000000000000000000000001', 'program', '{}', ?, 'first')").run(
    STAMP(10),
  );
  db.prepare("UPDATE program_rules SET body = '{\"a\":1}', last_change = 'second' WHERE id = '00000000000000000000000001'").run();
  db.prepare("UPDATE program_rules SET last_change = 'third' WHERE id = '00000000000000000000000001'").run();
  db.prepare("INSERT INTO products (id, name, hlc, last_change) VALUES ('g1', 'Milk', ?, 'x')").run(STAMP(11));
  db.prepare("UPDATE products SET name = 'Oat milk' WHERE id = 'g1'").run();
  db.prepare("DELETE FROM products WHERE id = 'g1'").run();
}

const parsed = (facts: string) => (facts === 'records' ? facts : JSON.parse(facts));

function derived(db: Db) {
  return {
    ledgers: db
      .prepare<[], { customer_id: string; point_facts: string; credit_facts: string }>(
        'SELECT customer_id, point_facts, credit_facts FROM customer_ledgers ORDER BY customer_id',
      )
      .all()
      .map((row) => ({ customer: row.customer_id, points: parsed(row.point_facts), credit: parsed(row.credit_facts) })),
    history: db.prepare('SELECT body, in_force_from FROM program_history ORDER BY id').all(),
    catalogVersion: db.prepare<[], number>('SELECT version FROM recommendation_catalog_version').pluck().get(),
  };
}

describe('the derived rows on SQLite and on PostgreSQL', () => {
  it('are the same after the same writes', () => {
    for (const db of engines) writeLedgerHistory(db);
    const [sqlite, postgres] = engines.map(derived);
    expect(postgres).toEqual(sqlite);
    expect(sqlite!.ledgers).toEqual([
      { customer: 'c1', points: [], credit: [[5_000, STAMP(4), 'k1']] },
      { customer: 'c2', points: [['c', 700, '2027-12-31', STAMP(3), 'p3']], credit: [] },
      { customer: 'c3', points: 'records', credit: [] },
    ]);
    expect(sqlite!.history).toEqual([
      { body: '{}', in_force_from: 'first' },
      { body: '{"a":1}', in_force_from: 'second' },
    ]);
    expect(sqlite!.catalogVersion).toBe(2);
  });
});
