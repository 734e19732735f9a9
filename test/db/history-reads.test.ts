/**
 * Reads that a chain's history would make slower each day search an index instead of reading
 * a whole table: the hub holds every store's facts for ever, and every node holds the chain's
 * voucher applications. Each repository is built over a real node's database, with `prepare`
 * passed through and recorded, and the plans of the statements it prepared are read.
 */
import { describe, expect, it } from 'vitest';
import { CheckoutRepo } from '../../src/features/checkout/checkout.repo.js';
import { PurchasesRepo } from '../../src/features/purchases/purchases.repo.js';
import { tempNode } from '../support/temp-node.js';
import { preparedBy } from '../support/prepared-by.js';

const { node } = tempNode('loyaltyd-history-reads-');
const db = node.db;

function planOf(sql: string): string[] {
  const params = sql
    .split('?')
    .slice(1)
    .map(() => 'x');
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail);
}

describe('reads that grow with the history', () => {
  it("a customer's purchases: by the till's customer and by the assignments' (migration 18)", () => {
    const reads = preparedBy(db, (recording) =>
      new PurchasesRepo(recording).page({ customer_id: 'c1' }, { count: 100, offset: 0, sort_direction: 'ASC' }),
    ).filter((sql) => sql.includes('FROM purchase_assignments WHERE customer_id = ?'));
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.startsWith('SCAN p'))).toEqual([]);
      expect(plan).toContain('SEARCH p USING INDEX purchases_by_customer (customer_id=?)');
      expect(plan).toContain('SEARCH purchase_assignments USING COVERING INDEX purchase_assignments_by_customer (customer_id=?)');
    }
  });

  it('the vouchers a purchase used, as a return gives them back and as GET /purchases/{id}/vouchers lists them (migration 19)', () => {
    const reads = [
      ...preparedBy(db, (recording) => new PurchasesRepo(recording).voucherIdsOf('p1')),
      ...preparedBy(db, (recording) => new CheckoutRepo(recording)),
    ].filter((sql) => /voucher_applications a?\s*WHERE a?\.?purchase_id = \?/.test(sql.replace(/\s+/g, ' ')));
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.startsWith('SCAN'))).toEqual([]);
      expect(plan).toContainEqual(expect.stringMatching(/^SEARCH \w+ USING (COVERING )?INDEX voucher_applications_by_purchase \(purchase_id=\?\)/));
    }
  });
});
