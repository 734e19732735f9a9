/**
 * The statements of the reads that grow with the history, as the repositories prepare them on
 * a database whose `prepare` is recorded and passed through: test/db/history-reads.test.ts reads
 * SQLite's plans of them, test/db/history-reads-postgres.test.ts PostgreSQL's.
 */
import type { Db } from '../../src/db/engine.js';
import { CheckoutRepo } from '../../src/features/checkout/checkout.repo.js';
import { PurchasesRepo } from '../../src/features/purchases/purchases.repo.js';

function preparedBy(db: Db, build: (db: Db) => unknown): string[] {
  const prepared: string[] = [];
  const recording = new Proxy(db, {
    get: (target, key) => (key === 'prepare' ? (sql: string) => (prepared.push(sql), target.prepare(sql)) : Reflect.get(target, key)),
  });
  build(recording);
  return prepared;
}

/** A customer's purchases, a page and its count: by the till's customer and by the assignments'. */
export function customerPurchaseReads(db: Db): string[] {
  return preparedBy(db, (recording) =>
    new PurchasesRepo(recording).page({ customer_id: 'c1' }, { count: 100, offset: 0, sort_direction: 'ASC' }),
  ).filter((sql) => sql.includes('FROM purchase_assignments WHERE customer_id = ?'));
}

/** The vouchers a purchase used, as a return gives them back and as GET /purchases/{id}/vouchers lists them. */
export function purchaseVoucherReads(db: Db): string[] {
  return [
    ...preparedBy(db, (recording) => new PurchasesRepo(recording).voucherIdsOf('p1')),
    ...preparedBy(db, (recording) => new CheckoutRepo(recording)),
  ].filter((sql) => /voucher_applications a?\s*WHERE a?\.?purchase_id = \?/.test(sql.replace(/\s+/g, ' ')));
}
