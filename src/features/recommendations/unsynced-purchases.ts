/**
 * This node's own purchases that the model does not hold yet: those stamped after the
 * watermark the hub published for this node. A store folds them into its answers, so a bill
 * closed here counts at once, online or not. They are read again only when a purchase is
 * made here or the watermark moves. A customer assigned here later, or a cancellation made
 * here of a purchase the model holds, waits for the hub; so do the pairings of these bills,
 * which a handful of bills would hardly move.
 */
import { billsOf, type CountedBill } from './purchase-lines.js';
import type { RecommendationsRepo } from './recommendations.repo.js';

export interface UnsyncedHistory {
  byCustomer: Map<string, CountedBill[]>;
  /** store → product → bills holding it. */
  soldByStore: Map<string, Map<string, number>>;
}

export class UnsyncedPurchases {
  private cached: { key: string; history: UnsyncedHistory } | undefined;

  constructor(
    private readonly repo: RecommendationsRepo,
    private readonly nodeId: string,
  ) {}

  /** undefined when the model holds every purchase made here. */
  current(): UnsyncedHistory | undefined {
    const covered = this.repo.coveredStamp(this.nodeId) ?? '';
    const newest = this.repo.newestPurchaseStamp(this.nodeId);
    if (newest === undefined || newest <= covered) return undefined;
    const key = `${covered} ${newest}`;
    if (this.cached?.key !== key) this.cached = { key, history: summarize(billsOf(this.repo.purchaseLinesAfter(this.nodeId, covered))) };
    return this.cached.history;
  }
}

function summarize(bills: CountedBill[]): UnsyncedHistory {
  const history: UnsyncedHistory = { byCustomer: new Map(), soldByStore: new Map() };
  for (const bill of bills) {
    if (!bill.counts) continue;
    if (bill.customerId) history.byCustomer.set(bill.customerId, [...(history.byCustomer.get(bill.customerId) ?? []), bill]);
    const sold = history.soldByStore.get(bill.storeId) ?? new Map<string, number>();
    history.soldByStore.set(bill.storeId, sold);
    for (const product of bill.products) sold.set(product.id, (sold.get(product.id) ?? 0) + 1);
  }
  return history;
}
