import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { RecommendationQuery, RecommendationsAnswer } from './recommendations.schemas.js';
import type { Action, RecommendationsService } from './recommendations.service.js';

/**
 * interface.md's GET forms, and the current OpenAPI file's POST forms (`combine`,
 * `eliminate`, `order` with the parameters in the body). customer_id is mandatory except
 * for a shopping-cart order, where the cart is.
 */
export function recommendationsRoutes(recommendations: RecommendationsService): Endpoint[] {
  const routes: Endpoint[] = [];
  for (const target of ['product', 'shopping-cart'] as const) {
    for (const action of ['eliminate', 'order', 'combined'] as const satisfies Action[]) {
      const mandatory = target === 'shopping-cart' && action === 'order' ? 'cart_product_ids' : 'customer_id';
      const base = `/recommendation-engine/${target}/actions`;
      routes.push(
        endpoint({
          method: 'get',
          path: `${base}/${action}`,
          interfaces: BOTH,
          cashDesk: true,
          query: RecommendationQuery,
          answer: RecommendationsAnswer,
          handle: ({ query }, context) => recommendations.recommend(action, query, context, mandatory),
        }),
        endpoint({
          method: 'post',
          path: `${base}/${action === 'combined' ? 'combine' : action}`,
          interfaces: BOTH,
          cashDesk: true,
          reads: true,
          body: RecommendationQuery,
          answer: RecommendationsAnswer,
          handle: ({ body }, context) => recommendations.recommend(action, body, context, mandatory),
        }),
      );
    }
  }
  return routes;
}
