import { z } from 'zod';
import { QueryInteger } from './schemas.js';

/** The most items a page holds, and the furthest a page may start: a page costs at most their sum in rows read. */
export const MAX_COUNT = 1000;
export const MAX_OFFSET = 10_000;

/** Common collection parameters (interface.md "Conventions", DESIGN §3). */
export const Paging = z.object({
  count: QueryInteger.pipe(z.number().min(1).max(MAX_COUNT)).default(100),
  offset: QueryInteger.pipe(z.number().min(0).max(MAX_OFFSET)).default(0),
  sort_field: z.string().min(1).optional(),
  sort_direction: z.preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(['ASC', 'DESC'])).default('ASC'),
});
export type Paging = z.infer<typeof Paging>;

/** The paging parameters of a list that sorts only by `fields`; any other sort_field answers 400 not_allowed_value. */
export function SortedPaging<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return Paging.extend({ sort_field: z.enum(fields).optional() });
}

export interface Page<T> {
  items: T[];
  total: number;
}
