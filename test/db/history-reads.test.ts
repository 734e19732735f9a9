/**
 * Reads that a chain's history would make slower each day search an index instead of reading
 * a whole table: the hub holds every store's facts for ever, and every node holds the chain's
 * voucher applications. Each repository is built over a real node's database, with `prepare`
 * passed through and recorded, and the plans of the statements it prepared are read.
 */
import { describe, expect, it } from 'vitest';
import { tempNode } from '../support/temp-node.js';
import { customerPurchaseReads, purchaseVoucherReads } from '../support/history-reads.js';

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
    const reads = customerPurchaseReads(db);
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.startsWith('SCAN p'))).toEqual([]);
      expect(plan).toContain('SEARCH p USING INDEX purchases_by_customer (customer_id=?)');
      expect(plan).toContain('SEARCH purchase_assignments USING COVERING INDEX purchase_assignments_by_customer (customer_id=?)');
    }
  });

  it('the vouchers a purchase used, as a return gives them back and as GET /purchases/{id}/vouchers lists them (migration 19)', () => {
    const reads = purchaseVoucherReads(db);
    expect(reads).toHaveLength(2);
    for (const plan of reads.map(planOf)) {
      expect(plan.filter((step) => step.startsWith('SCAN'))).toEqual([]);
      expect(plan).toContainEqual(expect.stringMatching(/^SEARCH \w+ USING (COVERING )?INDEX voucher_applications_by_purchase \(purchase_id=\?\)/));
    }
  });
});
