/**
 * The recommendation engine's three actions (interface.md): eliminate keeps only the
 * products that match the customer (and the cart), best first; order sorts the list best
 * first and cuts it to `count`; combined does both and fills up with best sellers — of the
 * store the customer shops at most, then of the chain — so that `count` products (default
 * 10) come back. Products already in the cart are never recommended. Without a list, the
 * candidates are the customer's products, the products bought with their favourites and
 * with the cart, and the best sellers.
 *
 * Answers come from the replicated model rows plus this node's purchases the model does not
 * hold yet; on the node that builds the model, it is first brought up to date when that is
 * cheap.
 */
import { invalidParam } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { customerFilter } from '../../http/customer-scope.js';
import type { ModelBuilder } from './model-builder.service.js';
import { CHAIN, type ScoredList } from './model-rows.schemas.js';
import { addBill, billKeys, emptyAffinity, type Affinity } from './recency-weights.js';
import { FAVOURITES, mostShared, relatedScores, score, sharesOf, type CustomerShares, type ScoringModel } from './recommendation-scoring.js';
import type { ProductKinds } from './product-kinds.js';
import { builderKey } from './profile-keys.js';
import type { RecommendationsRepo } from './recommendations.repo.js';
import type { RecommendationQuery, RecommendationsAnswer } from './recommendations.schemas.js';
import type { UnsyncedHistory, UnsyncedPurchases } from './unsynced-purchases.js';

export type Action = 'eliminate' | 'order' | 'combined';

const DEFAULT_COMBINED_COUNT = 10;
const POOL_NEIGHBOURS = 10;
const POOL_BEST_SELLERS = 40;

export class RecommendationsService {
  constructor(
    private readonly repo: RecommendationsRepo,
    private readonly kinds: ProductKinds,
    private readonly unsynced: UnsyncedPurchases,
    private readonly builder: ModelBuilder | undefined,
  ) {}

  recommend(
    action: Action,
    query: RecommendationQuery,
    context: RequestContext,
    mandatory: 'customer_id' | 'cart_product_ids',
  ): RecommendationsAnswer {
    const customerId = customerFilter(context, query.customer_id);
    if (mandatory === 'customer_id' && customerId === undefined) throw invalidParam('customer_id', 'required');
    if (mandatory === 'cart_product_ids' && !query.cart_product_ids?.length) throw invalidParam('cart_product_ids', 'required');
    const customer = customerId === undefined ? undefined : this.repo.customerById(customerId);
    if (customerId !== undefined && !customer) throw invalidParam('customer_id', 'not_found', customerId);
    this.builder?.catchUpIfCheap();

    const unsynced = this.unsynced.current();
    const affinity = customerId === undefined ? undefined : this.affinityOf(customerId, unsynced);
    const shares = affinity && sharesOf(affinity);
    const cart = unique(query.cart_product_ids ?? []);
    const favourites = shares ? mostShared(shares.products, FAVOURITES) : [];
    const neighbours = this.repo.neighbours(unique([...cart, ...favourites]));
    const bestSellers = this.bestSellers((shares && mostShared(shares.stores, 1)[0]) ?? customer?.store_id ?? undefined, unsynced);
    const candidates = unique(query.product_id_list ?? pool(shares, [...cart, ...favourites], neighbours, bestSellers)).filter(
      (product) => !cart.includes(product),
    );
    // Groups and brands matter only against a customer's shares of them.
    const model: ScoringModel = {
      shares,
      kinds: shares ? this.kinds.of(candidates) : new Map(),
      related: relatedScores(shares, favourites, cart, neighbours),
    };
    const rank = new Map(bestSellers.map((product, index) => [product, index]));
    const scored = candidates
      .map((product) => ({ product, value: score(model, product) }))
      .sort((a, b) => b.value - a.value || (rank.get(a.product) ?? rank.size) - (rank.get(b.product) ?? rank.size));

    let products: string[];
    if (action === 'order') {
      products = scored.map(({ product }) => product).slice(0, query.count ?? scored.length);
    } else {
      products = scored.filter(({ value }) => value > 0).map(({ product }) => product);
      if (action === 'combined') products = this.completed(products, query.count ?? DEFAULT_COMBINED_COUNT, bestSellers, cart);
    }
    return { recommended_products_list: products, total_items: products.length };
  }

  /** The customer's model row with their bills made here since the model's watermark. */
  private affinityOf(customerId: string, unsynced: UnsyncedHistory | undefined): Affinity | undefined {
    const row = this.repo.customerRow(customerId);
    let affinity: Affinity | undefined = row && {
      asOfDay: row.as_of_day,
      billsWeight: row.bills_weight,
      weights: new Map(row.affinities.map(([key, weight]) => [builderKey(key), weight])),
    };
    for (const bill of unsynced?.byCustomer.get(customerId) ?? []) {
      affinity ??= emptyAffinity(bill.day);
      addBill(affinity, bill.day, billKeys(bill.storeId, bill.products), 1);
    }
    return affinity;
  }

  /** Best sellers of the store (if known), then of the chain, with the bills made here since the watermark. */
  private bestSellers(storeId: string | undefined, unsynced: UnsyncedHistory | undefined): string[] {
    const lists = this.repo.bestSellers(storeId === undefined ? [CHAIN] : [storeId, CHAIN]);
    const soldHere = [...(unsynced?.soldByStore ?? [])];
    const ofStore =
      storeId === undefined
        ? []
        : ranked(
            lists.get(storeId) ?? [],
            soldHere.filter(([store]) => store === storeId),
          );
    return unique([...ofStore, ...ranked(lists.get(CHAIN) ?? [], soldHere)]);
  }

  /** Fills an answer up to `count` with best sellers, then with the catalogue. */
  private completed(products: string[], count: number, bestSellers: string[], cart: string[]): string[] {
    const chosen = new Set(products.slice(0, count));
    const fill = (from: string[]) => {
      for (const product of from) {
        if (chosen.size >= count) return;
        if (!cart.includes(product)) chosen.add(product);
      }
    };
    fill(bestSellers);
    if (chosen.size < count) fill(this.repo.catalogProducts(count + cart.length + chosen.size));
    return [...chosen];
  }
}

/** A best-seller list with what was sold here since the watermark added, most sold first. */
function ranked(list: ScoredList, soldHere: [string, Map<string, number>][]): string[] {
  if (soldHere.length === 0) return list.map(([product]) => product);
  const bills = new Map(list);
  for (const [, sold] of soldHere) for (const [product, count] of sold) bills.set(product, (bills.get(product) ?? 0) + count);
  return [...bills].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([product]) => product);
}

/**
 * The candidates when no list is given: the customer's products, the best of those bought
 * with the cart and with their favourites, and the best sellers — few enough to score each.
 */
function pool(shares: CustomerShares | undefined, linked: string[], neighbours: Map<string, Map<string, number>>, bestSellers: string[]): string[] {
  const own = shares ? [...shares.products.keys()] : [];
  const related = linked.flatMap((product) => [...(neighbours.get(product)?.keys() ?? [])].slice(0, POOL_NEIGHBOURS));
  return [...own, ...related, ...bestSellers.slice(0, POOL_BEST_SELLERS)];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
