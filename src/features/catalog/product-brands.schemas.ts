import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, Text } from '../../core/schemas.js';

export const ProductBrandPath = z.object({ product_brand_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const PRODUCT_BRAND_SORT_FIELDS = ['product_brand_id', 'name'] as const;
export const ProductBrandQuery = SortedPaging(PRODUCT_BRAND_SORT_FIELDS).extend({ name: Text.optional() });
export type ProductBrandQuery = z.infer<typeof ProductBrandQuery>;

/** A brand as master data loads it (`loyaltyd import brands`); the API only reads them. */
export const ProductBrandRecord = z.object({ product_brand_id: Id.optional(), name: Text, external_id: Text.nullable().optional() });
export type ProductBrandRecord = z.infer<typeof ProductBrandRecord>;

/** The ProductBrand structure of the 2021 OpenAPI file, as the API answers it. */
export const ProductBrandAnswer = z.object({ product_brand_id: z.string(), name: z.string(), external_id: z.string().nullable() });
export type ProductBrandAnswer = z.infer<typeof ProductBrandAnswer>;
export const ProductBrandsAnswer = Collection('product_brands', ProductBrandAnswer);
