import type { Db } from '../../db/open.js';
import type { HistoryLine } from './recommendation-model.js';

export class RecommendationsRepo {
  private readonly fingerprint;
  private readonly history;
  private readonly customer;

  constructor(db: Db) {
    this.fingerprint = db.prepare<[], { n: number; newest: string | null }>('SELECT count(*) AS n, max(hlc) AS newest FROM purchase_items');
    // Bought items of purchases that were not cancelled, with the purchase's customer as
    // the assignment fold decides it.
    this.history = db.prepare<[], Omit<HistoryLine, 'paid_at'> & { payment_time: string }>(
      `SELECT i.purchase_id,
              coalesce(p.customer_id, (SELECT customer_id FROM purchase_assignments WHERE purchase_id = p.id ORDER BY hlc LIMIT 1)) AS customer_id,
              i.product_id, pr.product_group_id, pr.product_brand_id, p.payment_time
       FROM purchase_items i JOIN purchases p ON p.id = i.purchase_id JOIN products pr ON pr.id = i.product_id
       WHERE p.canceled = 0 AND p.cancels_purchase_id IS NULL AND coalesce(i.amount_milli, 1) > 0`,
    );
    this.customer = db.prepare<[string], { id: string }>('SELECT id FROM customers WHERE id = ?');
  }

  /** Changes whenever a purchase item is written, so a cached model knows it is stale. */
  historyVersion(): string {
    const row = this.fingerprint.get()!;
    return `${row.n}:${row.newest ?? ''}`;
  }

  historyLines(): HistoryLine[] {
    return this.history.all().map(({ payment_time, ...line }) => ({ ...line, paid_at: Date.parse(payment_time) }));
  }

  hasCustomer(id: string): boolean {
    return this.customer.get(id) !== undefined;
  }
}
