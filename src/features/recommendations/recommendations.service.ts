/**
 * The recommendation engine's three actions (interface.md): eliminate keeps only the
 * products that match the customer (and the cart), best first; order sorts the list best
 * first and cuts it to `count`; combined does both and fills up with best sellers so that
 * `count` products (default 10) always come back. Products already in the cart are never
 * recommended. The model is built from the local purchase history and rebuilt when it
 * changes; a store answers from its own replica.
 */
import type { Clock } from '../../clock.js';
import { invalidParam } from '../../errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { customerFilter } from '../../http/customer-scope.js';
import { buildModel, score, type RecommendationModel } from './recommendation-model.js';
import type { RecommendationsRepo } from './recommendations.repo.js';
import type { RecommendationQuery } from './recommendations.schemas.js';

export type Action = 'eliminate' | 'order' | 'combined';

const DEFAULT_COMBINED_COUNT = 10;

export class RecommendationsService {
  private cached: { version: string; model: RecommendationModel } | undefined;

  constructor(
    private readonly repo: RecommendationsRepo,
    private readonly clock: Clock,
  ) {}

  recommend(action: Action, query: RecommendationQuery, context: RequestContext, mandatory: 'customer_id' | 'cart_product_ids') {
    const customerId = customerFilter(context, query.customer_id);
    if (mandatory === 'customer_id' && customerId === undefined) throw invalidParam('customer_id', 'required');
    if (mandatory === 'cart_product_ids' && !query.cart_product_ids?.length) throw invalidParam('cart_product_ids', 'required');
    if (customerId !== undefined && !this.repo.hasCustomer(customerId)) throw invalidParam('customer_id', 'not_found', customerId);
    const model = this.model();
    const cart = query.cart_product_ids ?? [];
    const candidates = (query.product_id_list ?? model.bestSellers).filter((product, index, all) => !cart.includes(product) && all.indexOf(product) === index);
    const rank = new Map(model.bestSellers.map((product, index) => [product, index]));
    const scored = candidates
      .map((product) => ({ product, value: score(model, customerId, product, cart) }))
      .sort((a, b) => b.value - a.value || (rank.get(a.product) ?? Infinity) - (rank.get(b.product) ?? Infinity));
    let products: string[];
    if (action === 'order') {
      products = scored.map(({ product }) => product).slice(0, query.count ?? scored.length);
    } else {
      products = scored.filter(({ value }) => value > 0).map(({ product }) => product);
      if (action === 'combined') {
        const count = query.count ?? DEFAULT_COMBINED_COUNT;
        for (const product of model.bestSellers) {
          if (products.length >= count) break;
          if (!products.includes(product) && !cart.includes(product)) products.push(product);
        }
        products = products.slice(0, count);
      }
    }
    return { recommended_products_list: products, total_items: products.length };
  }

  private model(): RecommendationModel {
    const version = this.repo.historyVersion();
    if (this.cached?.version !== version) this.cached = { version, model: buildModel(this.repo.historyLines(), this.clock()) };
    return this.cached.model;
  }
}
