import { z } from 'zod';
import { Paging } from '../../http/paging.js';
import { Text } from '../../http/schemas.js';

export const ProductBrandPath = z.object({ product_brand_id: z.string() });

export const ProductBrandQuery = Paging.extend({ name: Text.optional() });
export type ProductBrandQuery = z.infer<typeof ProductBrandQuery>;

export const ProductBrandRow = z.object({ id: z.string(), name: z.string(), external_id: z.string().nullable() });
export type ProductBrandRow = z.infer<typeof ProductBrandRow>;
