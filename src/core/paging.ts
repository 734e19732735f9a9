import { z } from 'zod';
import { QueryInteger } from './schemas.js';

/** Common collection parameters (interface.md "Conventions", DESIGN §3). */
export const Paging = z.object({
  count: QueryInteger.pipe(z.number().min(1).max(1000)).default(100),
  offset: QueryInteger.pipe(z.number().min(0)).default(0),
  sort_field: z.string().min(1).optional(),
  sort_direction: z
    .preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(['ASC', 'DESC']))
    .default('ASC'),
});
export type Paging = z.infer<typeof Paging>;

export interface Page<T> {
  items: T[];
  total: number;
}
