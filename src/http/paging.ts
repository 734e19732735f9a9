import { z } from 'zod';
import { invalidParam } from '../errors.js';
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

/**
 * The ORDER BY clause for a collection: `sortable` maps each first-level field of the
 * returned structure that may be sorted on to its SQL expression. The id breaks ties so
 * that paging is stable.
 */
export function orderBy(paging: Paging, sortable: Record<string, string>, defaultField: string): string {
  const field = paging.sort_field ?? defaultField;
  const column = sortable[field];
  if (!column) throw invalidParam('sort_field', 'not_allowed_value', field, `Sortable fields: ${Object.keys(sortable).join(', ')}`);
  return `ORDER BY ${column} ${paging.sort_direction}, id ${paging.sort_direction}`;
}

export interface Page<T> {
  items: T[];
  total: number;
}
