/**
 * The replicated model rows (the recommendation model's tables every node holds), as stored. Each list is `[[key, integer], …]`
 * in JSON, best first: a product's neighbours with their cosine in thousandths, a
 * customer's keys with their weights, a store's best sellers with their bills.
 */
import { z } from 'zod';

export const ScoredList = z.array(z.tuple([z.string(), z.number().int()]));
export type ScoredList = z.infer<typeof ScoredList>;

const ScoredListText = z
  .string()
  .transform((text) => JSON.parse(text) as unknown)
  .pipe(ScoredList);

export const NeighboursRow = z.object({ id: z.string(), neighbours: ScoredListText });
export type NeighboursRow = z.infer<typeof NeighboursRow>;

export const CustomerModelRow = z.object({ id: z.string(), as_of_day: z.number().int(), bills_weight: z.number().int(), affinities: ScoredListText });
export type CustomerModelRow = z.infer<typeof CustomerModelRow>;

export const BestSellersRow = z.object({ id: z.string(), products: ScoredListText });
export type BestSellersRow = z.infer<typeof BestSellersRow>;

/** The best sellers of the whole chain; the other rows are keyed by store id. */
export const CHAIN = 'chain';
