import { z } from 'zod';
import { Collection, QueryArray, QueryInteger } from '../../core/schemas.js';

const Count = QueryInteger.pipe(z.number().int().min(1).max(1000));
const Ids = z.union([QueryArray, z.array(z.string().min(1))]);

/** Parameters of every recommendation call, as a query string (GET) or a JSON body (POST). */
export const RecommendationQuery = z.object({
  customer_id: z.string().min(1).optional(),
  product_id_list: Ids.optional(),
  cart_product_ids: Ids.optional(),
  count: Count.optional(),
});
export type RecommendationQuery = z.infer<typeof RecommendationQuery>;

/** The recommended products, best first, by their id strings (interface.md). */
export const RecommendationsAnswer = Collection('recommended_products_list', z.string());
export type RecommendationsAnswer = z.infer<typeof RecommendationsAnswer>;
