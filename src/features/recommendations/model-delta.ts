/**
 * What a batch of purchases changes in the model's accumulators, summed in memory so that
 * each counter is written once per batch rather than once per bill.
 */
import { originOfStamp } from '../../core/hlc.js';
import type { CountedBill } from './purchase-lines.js';
import { addBill, billKeys, emptyAffinity, type Affinity } from './recency-weights.js';

export class ModelDelta {
  bills = 0;
  /** product → bills holding it. */
  readonly products = new Map<string, number>();
  /** store → product → bills holding it. */
  readonly stores = new Map<string, Map<string, number>>();
  /** product → other product → bills holding both (both directions). */
  readonly pairs = new Map<string, Map<string, number>>();
  readonly customers = new Map<string, Affinity>();
  /** node → the newest stamp of its purchase facts seen. */
  readonly origins = new Map<string, string>();

  /** Counts a bill in (sign 1) or out (sign -1), for its customer when it has one. */
  count(bill: CountedBill, customerId: string | null, sign: 1 | -1): void {
    this.bills += sign;
    const store = this.stores.get(bill.storeId) ?? new Map<string, number>();
    this.stores.set(bill.storeId, store);
    for (const product of bill.products) {
      add(this.products, product.id, sign);
      add(store, product.id, sign);
      const row = this.pairs.get(product.id) ?? new Map<string, number>();
      this.pairs.set(product.id, row);
      for (const other of bill.products) if (other.id !== product.id) add(row, other.id, sign);
    }
    if (customerId) this.countForCustomer(bill, customerId, sign);
  }

  /** Adds or takes back only the customer's share of a bill (the bill's customer changed). */
  countForCustomer(bill: CountedBill, customerId: string, sign: 1 | -1): void {
    let affinity = this.customers.get(customerId);
    if (!affinity) {
      affinity = emptyAffinity(bill.day);
      this.customers.set(customerId, affinity);
    }
    addBill(affinity, bill.day, billKeys(bill.storeId, bill.products), sign);
  }

  /** Notes a purchase fact's stamp, `<ms>-<counter>-<node>`, as seen. */
  saw(hlc: string): void {
    const node = originOfStamp(hlc);
    const newest = this.origins.get(node);
    if (newest === undefined || hlc > newest) this.origins.set(node, hlc);
  }
}

function add(counts: Map<string, number>, key: string, amount: number): void {
  counts.set(key, (counts.get(key) ?? 0) + amount);
}
