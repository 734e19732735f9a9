import { z } from 'zod';
import { Paging } from '../../http/paging.js';
import { Text } from '../../http/schemas.js';

export const ProductGroupPath = z.object({ product_group_id: z.string() });

export const ProductGroupQuery = Paging.extend({ name: Text.optional(), store_id: Text.optional(), code: Text.optional() });
export type ProductGroupQuery = z.infer<typeof ProductGroupQuery>;

export const ProductGroupRow = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  code: z.string().nullable(),
  external_id: z.string().nullable(),
  store_id: z.string().nullable(),
  state: z.number(),
  last_change: z.string(),
});
export type ProductGroupRow = z.infer<typeof ProductGroupRow>;
