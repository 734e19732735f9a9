/**
 * Purchases as the recommendation model reads them: the products a bill bought, its customer
 * as the assignment fold decides it, and whether it counts at all. A purchase counts unless
 * it is a cancellation or was cancelled; lines with a negative amount (returns) and lines
 * naming no known product buy nothing.
 */
import { dayOf } from './recency-weights.js';

export interface ProductKind {
  id: string;
  group: string | null;
  brand: string | null;
}

export interface CountedBill {
  purchaseId: string;
  hlc: string;
  customerId: string | null;
  storeId: string;
  day: number;
  /** Whether the bill counts as bought; the products are listed either way. */
  counts: boolean;
  products: ProductKind[];
}

export interface PurchaseLine {
  purchase_id: string;
  hlc: string;
  customer_id: string | null;
  store_id: string;
  payment_time: string;
  live: number;
  product_id: string | null;
  product_group_id: string | null;
  product_brand_id: string | null;
}

/**
 * One row per bought line (or one row for a purchase with none) of the purchases `p` that
 * `from` names; callers add any WHERE on `p`.
 */
export const purchaseLines = (from = 'purchases p') => `
  SELECT p.id AS purchase_id, p.hlc, p.store_id, p.payment_time,
         coalesce(p.customer_id, (SELECT a.customer_id FROM purchase_assignments a WHERE a.purchase_id = p.id ORDER BY a.hlc LIMIT 1)) AS customer_id,
         (p.canceled = 0 AND p.cancels_purchase_id IS NULL AND NOT EXISTS (SELECT 1 FROM purchases c WHERE c.cancels_purchase_id = p.id)) AS live,
         pr.id AS product_id, pr.product_group_id, pr.product_brand_id
  FROM ${from}
  LEFT JOIN purchase_items i ON i.purchase_id = p.id AND coalesce(i.amount_milli, 1) > 0
  LEFT JOIN products pr ON pr.id = i.product_id`;

export function billsOf(lines: Iterable<PurchaseLine>): CountedBill[] {
  const bills = new Map<string, CountedBill>();
  for (const line of lines) {
    let bill = bills.get(line.purchase_id);
    if (!bill) {
      bill = {
        purchaseId: line.purchase_id,
        hlc: line.hlc,
        customerId: line.customer_id,
        storeId: line.store_id,
        day: dayOf(line.payment_time),
        counts: line.live === 1,
        products: [],
      };
      bills.set(line.purchase_id, bill);
    }
    if (line.product_id && !bill.products.some((product) => product.id === line.product_id)) {
      bill.products.push({ id: line.product_id, group: line.product_group_id, brand: line.product_brand_id });
    }
  }
  for (const bill of bills.values()) bill.counts &&= bill.products.length > 0;
  return [...bills.values()];
}
