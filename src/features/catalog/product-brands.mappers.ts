import type { ProductBrandRow } from './product-brands.repo.js';
import type { ProductBrandAnswer } from './product-brands.schemas.js';

/** The ProductBrand structure of the 2021 OpenAPI file: it carries no state or last_change. */
export function toProductBrand(row: ProductBrandRow): ProductBrandAnswer {
  return { product_brand_id: row.id, name: row.name, external_id: row.external_id };
}
