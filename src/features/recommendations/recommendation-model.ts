/**
 * The recommendation model, built from purchase history (lines of bills): products bought
 * together, scored by lift — how much more often than chance two products share a bill, so
 * that staples bought with everything do not crowd out real pairings; each customer's
 * recency-weighted affinity to products, groups and brands; and best sellers.
 */
export interface HistoryLine {
  purchase_id: string;
  customer_id: string | null;
  product_id: string;
  product_group_id: string | null;
  product_brand_id: string | null;
  /** When the purchase was paid, ms since the epoch. */
  paid_at: number;
}

export interface RecommendationModel {
  /** product → (other product → lift). */
  lift: Map<string, Map<string, number>>;
  /** customer → key (`p:`, `g:` or `b:` + id) → weight. */
  affinity: Map<string, Map<string, number>>;
  /** Products by units sold, best first. */
  bestSellers: string[];
  groupOf: Map<string, { group: string | null; brand: string | null }>;
}

/** Half of a purchase's weight is gone after this many days. */
const HALF_LIFE_DAYS = 90;

export function buildModel(lines: HistoryLine[], now: number): RecommendationModel {
  const bills = new Map<string, Set<string>>();
  const sold = new Map<string, number>();
  const affinity = new Map<string, Map<string, number>>();
  const groupOf = new Map<string, { group: string | null; brand: string | null }>();
  for (const line of lines) {
    groupOf.set(line.product_id, { group: line.product_group_id, brand: line.product_brand_id });
    sold.set(line.product_id, (sold.get(line.product_id) ?? 0) + 1);
    const bill = bills.get(line.purchase_id) ?? new Set<string>();
    bill.add(line.product_id);
    bills.set(line.purchase_id, bill);
    if (!line.customer_id) continue;
    const weight = 0.5 ** ((now - line.paid_at) / (HALF_LIFE_DAYS * 86_400_000));
    const mine = affinity.get(line.customer_id) ?? new Map<string, number>();
    for (const key of [`p:${line.product_id}`, line.product_group_id && `g:${line.product_group_id}`, line.product_brand_id && `b:${line.product_brand_id}`]) {
      if (key) mine.set(key, (mine.get(key) ?? 0) + weight);
    }
    affinity.set(line.customer_id, mine);
  }
  const inBills = new Map<string, number>();
  const together = new Map<string, Map<string, number>>();
  for (const products of bills.values()) {
    for (const a of products) {
      inBills.set(a, (inBills.get(a) ?? 0) + 1);
      for (const b of products) {
        if (a === b) continue;
        const row = together.get(a) ?? new Map<string, number>();
        row.set(b, (row.get(b) ?? 0) + 1);
        together.set(a, row);
      }
    }
  }
  const lift = new Map<string, Map<string, number>>();
  for (const [a, row] of together) {
    const scored = new Map<string, number>();
    for (const [b, both] of row) scored.set(b, (both * bills.size) / (inBills.get(a)! * inBills.get(b)!));
    lift.set(a, scored);
  }
  const bestSellers = [...sold].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([product]) => product);
  return { lift, affinity, bestSellers, groupOf };
}

/** How well a product fits a customer (and a cart): 0 when nothing links them. */
export function score(model: RecommendationModel, customerId: string | undefined, productId: string, cart: string[]): number {
  const mine = customerId ? model.affinity.get(customerId) : undefined;
  const kind = model.groupOf.get(productId);
  let value = 0;
  if (mine) {
    value += mine.get(`p:${productId}`) ?? 0;
    if (kind?.group) value += 0.5 * (mine.get(`g:${kind.group}`) ?? 0);
    if (kind?.brand) value += 0.25 * (mine.get(`b:${kind.brand}`) ?? 0);
  }
  for (const inCart of cart) {
    const pairing = model.lift.get(inCart)?.get(productId) ?? 0;
    // Only pairings above chance steer the cart (lift > 1).
    if (pairing > 1) value += pairing;
  }
  return value;
}
