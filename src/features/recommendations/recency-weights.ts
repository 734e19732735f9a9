/**
 * Recency weighting in integers. A bill weighs 1000 on its day and half as much every
 * HALF_LIFE_DAYS after. A weight is kept "as of" a day; carrying it to a later day multiplies
 * it by the decay of the days between, read from a table computed once, so every node gets
 * the same integers and no sum is kept in binary floating point.
 */
const HALF_LIFE_DAYS = 90;
/** A bill older than this weighs nothing. */
const HORIZON_DAYS = 1095;
const DAY_MS = 86_400_000;

const DECAY = Array.from({ length: HORIZON_DAYS + 1 }, (_, age) => Math.round(1000 * 0.5 ** (age / HALF_LIFE_DAYS)));

/** What a bill `age` days old weighs, in thousandths. */
function decay(age: number): number {
  if (age <= 0) return 1000;
  return DECAY[age] ?? 0;
}

/** The UTC day number of an ISO instant. */
export function dayOf(isoTime: string): number {
  return Math.floor(Date.parse(isoTime) / DAY_MS);
}

/** A weight kept as of `from`, carried to the day `to` (not earlier than `from`). */
export function carry(weight: number, from: number, to: number): number {
  return Math.trunc((weight * decay(to - from)) / 1000);
}

/** A customer's weighted bills: the weight of every key (`p:`, `g:`, `b:`, `s:` + id) and of all bills. */
export interface Affinity {
  asOfDay: number;
  billsWeight: number;
  weights: Map<string, number>;
}

export function emptyAffinity(day: number): Affinity {
  return { asOfDay: day, billsWeight: 0, weights: new Map() };
}

/** Adds (sign 1) or takes back (sign -1) one bill of `day` holding `keys`. */
export function addBill(affinity: Affinity, day: number, keys: Iterable<string>, sign: 1 | -1): void {
  if (day > affinity.asOfDay) {
    affinity.billsWeight = carry(affinity.billsWeight, affinity.asOfDay, day);
    for (const [key, weight] of affinity.weights) affinity.weights.set(key, carry(weight, affinity.asOfDay, day));
    affinity.asOfDay = day;
  }
  const weight = sign * decay(affinity.asOfDay - day);
  affinity.billsWeight += weight;
  for (const key of keys) affinity.weights.set(key, (affinity.weights.get(key) ?? 0) + weight);
}

/** The keys a bill gives its customer: each product, group, brand and the store, once. */
export function billKeys(storeId: string, products: readonly { id: string; group: string | null; brand: string | null }[]): Set<string> {
  const keys = new Set<string>([`s:${storeId}`]);
  for (const product of products) {
    keys.add(`p:${product.id}`);
    if (product.group) keys.add(`g:${product.group}`);
    if (product.brand) keys.add(`b:${product.brand}`);
  }
  return keys;
}
