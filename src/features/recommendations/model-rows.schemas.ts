/**
 * The replicated model rows (the recommendation model's tables every node holds), as stored. Each list is `[[key, integer], …]`
 * in JSON, best first: a product's neighbours with their cosine in thousandths, a
 * customer's keys with their weights, a store's best sellers with their bills.
 */
import { z } from 'zod';

export const ScoredList = z.array(z.tuple([z.string(), z.number().int()]));
export type ScoredList = z.infer<typeof ScoredList>;

/** The best sellers of the whole chain; the other rows are keyed by store id. */
export const CHAIN = 'chain';
