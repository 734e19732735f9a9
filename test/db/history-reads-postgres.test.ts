/**
 * The reads that grow with the history (test/db/history-reads.test.ts reads SQLite's plans)
 * search their indexes on PostgreSQL too. With sequential scans switched off the planner takes
 * an index wherever one serves, so a plan that still reads a table whole names the missing
 * index; and each read must search the index its SQLite twin searches (a bitmap scan of it counts). Each repository is built over a migrated PostgreSQL database with `prepare` recorded;
 * each statement's plan is the generic plan of a PREPARE (PostgreSQL 15 has no EXPLAIN
 * GENERIC_PLAN), which does not depend on the parameters it is executed with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { numberPlaceholders } from '../../src/db/postgres/placeholders.js';
import { PostgresDb } from '../../src/db/postgres/postgres-db.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../support/postgres.js';
import { customerPurchaseReads, purchaseVoucherReads } from '../support/history-reads.js';

let database: PostgresDatabase;
let db: PostgresDb;

beforeAll(async () => {
  database = await freshPostgresDatabase();
  db = new PostgresDb(database.url);
  migrate(db);
  db.exec('SET enable_seqscan = off; SET plan_cache_mode = force_generic_plan');
});

afterAll(async () => {
  db?.close();
  await database?.drop();
});

function planOf(sql: string): string[] {
  const numbered = numberPlaceholders(sql);
  db.exec(`PREPARE plan_of AS ${numbered.text}`);
  try {
    const values = Array.from({ length: numbered.count }, () => 'NULL').join(', ');
    return db
      .prepare<[], string>(`EXPLAIN EXECUTE plan_of${values ? ` (${values})` : ''}`)
      .pluck()
      .all();
  } finally {
    db.exec('DEALLOCATE plan_of');
  }
}

describe('reads that grow with the history, on PostgreSQL', () => {
  it("a customer's purchases: by the till's customer and by the assignments'", () => {
    const reads = customerPurchaseReads(db);
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.includes('Seq Scan'))).toEqual([]);
      expect(plan.join('\n')).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) purchases_by_customer /);
      expect(plan.join('\n')).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) purchase_assignments_by_customer /);
    }
  });

  it('the vouchers a purchase used, as a return gives them back and as GET /purchases/{id}/vouchers lists them', () => {
    const reads = purchaseVoucherReads(db);
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.includes('Seq Scan'))).toEqual([]);
      expect(plan.join('\n')).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) voucher_applications_by_purchase /);
    }
  });
});
