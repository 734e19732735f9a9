import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, Text, StoreTimestamp } from '../../core/schemas.js';

export const ProductGroupPath = z.object({ product_group_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const PRODUCT_GROUP_SORT_FIELDS = ['product_group_id', 'name', 'code', 'store_id'] as const;
export const ProductGroupQuery = SortedPaging(PRODUCT_GROUP_SORT_FIELDS).extend({
  name: Text.optional(),
  store_id: Text.optional(),
  code: Text.optional(),
});
export type ProductGroupQuery = z.infer<typeof ProductGroupQuery>;

/** A product group as master data loads it (`loyaltyd import product-groups`); the API only reads them. */
export const ProductGroupRecord = z.object({
  product_group_id: Id.optional(),
  name: Text,
  parent_product_group_id: Id.nullable().optional(),
  code: Text.nullable().optional(),
  external_id: Text.nullable().optional(),
  store_id: Id.nullable().optional(),
  state: z.number().int().min(0).max(1).optional(),
});
export type ProductGroupRecord = z.infer<typeof ProductGroupRecord>;

export const ProductGroupAnswer = z.object({
  product_group_id: z.string(),
  name: z.string(),
  parent_product_group_id: z.string().nullable(),
  code: z.string().nullable(),
  external_id: z.string().nullable(),
  store_id: z.string().nullable(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type ProductGroupAnswer = z.infer<typeof ProductGroupAnswer>;
export const ProductGroupsAnswer = Collection('product_groups', ProductGroupAnswer);
