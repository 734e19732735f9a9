/**
 * How well a product fits a customer and a cart, in integers. A customer's weights are read
 * as shares (in thousandths) of their recency-weighted bills: the share of bills that held
 * the product (counted twice: a product bought again is the surest sign of the next bill),
 * its group (counted half) and its brand (a quarter). Products bought with the customer's
 * favourites add their cosine scaled by that favourite's share, and products bought with
 * what is in the cart add their cosine. 0 when nothing links them.
 */
import type { ProductKind } from './purchase-lines.js';
import type { Affinity } from './recency-weights.js';

/** How many of a customer's most bought products lend their neighbours a score. */
export const FAVOURITES = 5;

/** A customer's shares of bills, in thousandths, by product, group, brand and store id. */
export interface CustomerShares {
  products: Map<string, number>;
  groups: Map<string, number>;
  brands: Map<string, number>;
  stores: Map<string, number>;
}

export interface ScoringModel {
  shares: CustomerShares | undefined;
  kinds: Map<string, ProductKind>;
  /** product → what links it to the customer's favourites and to the cart (relatedScores). */
  related: Map<string, number>;
}

const KIND_OF_KEY = { p: 'products', g: 'groups', b: 'brands', s: 'stores' } as const;

export function sharesOf(affinity: Affinity): CustomerShares {
  const shares: CustomerShares = { products: new Map(), groups: new Map(), brands: new Map(), stores: new Map() };
  if (affinity.billsWeight <= 0) return shares;
  for (const [key, weight] of affinity.weights) {
    const kind = KIND_OF_KEY[key[0] as keyof typeof KIND_OF_KEY];
    if (kind && weight > 0) shares[kind].set(key.slice(2), Math.floor((weight * 1000) / affinity.billsWeight));
  }
  return shares;
}

/** Ids by share, highest first, ties by id. */
export function mostShared(shares: Map<string, number>, count = Infinity): string[] {
  return [...shares]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([id]) => id);
}

/**
 * The products bought with the customer's favourites, each cosine scaled by that
 * favourite's share, plus the products bought with what is in the cart, by their cosine.
 */
export function relatedScores(
  shares: CustomerShares | undefined,
  favourites: string[],
  cart: string[],
  neighbours: Map<string, Map<string, number>>,
): Map<string, number> {
  const related = new Map<string, number>();
  const add = (product: string, value: number) => related.set(product, (related.get(product) ?? 0) + value);
  for (const favourite of shares ? favourites : []) {
    const share = shares!.products.get(favourite) ?? 0;
    for (const [product, cosine] of neighbours.get(favourite) ?? []) add(product, Math.floor((share * cosine) / 1000));
  }
  for (const inCart of cart) for (const [product, cosine] of neighbours.get(inCart) ?? []) add(product, cosine);
  return related;
}

export function score(model: ScoringModel, productId: string): number {
  const { shares } = model;
  let value = model.related.get(productId) ?? 0;
  if (shares) {
    const kind = model.kinds.get(productId);
    value += 2 * (shares.products.get(productId) ?? 0);
    if (kind?.group) value += Math.floor((shares.groups.get(kind.group) ?? 0) / 2);
    if (kind?.brand) value += Math.floor((shares.brands.get(kind.brand) ?? 0) / 4);
  }
  return value;
}
