import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, Text, StoreTimestamp } from '../../core/schemas.js';

/** The list of external ids shown and matched when a request names none (DESIGN §6). */
export const DEFAULT_EXTERNAL_LIST = 'GLOBAL';

export const ProductPath = z.object({ product_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const PRODUCT_SORT_FIELDS = ['product_id', 'name', 'code'] as const;
export const ProductQuery = SortedPaging(PRODUCT_SORT_FIELDS).extend({
  name: Text.optional(),
  code: Text.optional(),
  external_id: Text.optional(),
  external_type_code: Text.default(DEFAULT_EXTERNAL_LIST),
});
export type ProductQuery = z.infer<typeof ProductQuery>;

export const ProductDetailQuery = z.object({ external_type_code: Text.default(DEFAULT_EXTERNAL_LIST) });

/** An entry of the `additional_properties` column. */
export const StoredProperty = z.object({
  property_id: z.string(),
  property_name: z.string(),
  property_value: z.json(),
  last_change: z.string().nullable().optional(),
});

/**
 * A product as master data loads it (`loyaltyd import products`); the API only reads
 * products. Its external ids are given per list code, one code or several:
 * `{ "GLOBAL": "8590001", "EAN": ["4006381333931"] }` (in CSV: `external_ids.EAN`).
 */
export const ProductRecord = z.object({
  product_id: Id.optional(),
  name: Text,
  code: Text.nullable().optional(),
  product_group_id: Id.nullable().optional(),
  product_brand_id: Id.nullable().optional(),
  external_ids: z.record(Text, z.union([Text.transform((code) => [code]), z.array(Text)])).optional(),
  additional_properties: z.array(StoredProperty.omit({ last_change: true })).optional(),
  state: z.number().int().min(0).max(1).optional(),
});
export type ProductRecord = z.infer<typeof ProductRecord>;

/** The Product structure of the OpenAPI file as the API answers it, with the external id of the list asked for. */
export const ProductAnswer = z.object({
  product_id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  external_id: z.string().nullable(),
  product_group_id: z.string().nullable(),
  product_brand_id: z.string().nullable(),
  additional_properties: z.array(
    z.object({
      property_record_id: z.string(),
      property_id: z.string(),
      property_name: z.string(),
      property_value: z.json(),
      last_change: StoreTimestamp.nullable(),
    }),
  ),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type ProductAnswer = z.infer<typeof ProductAnswer>;
export const ProductsAnswer = Collection('products', ProductAnswer);
