import { notFound } from '../../core/errors.js';
import { toProductBrand } from './product-brands.mappers.js';
import type { ProductBrandsRepo } from './product-brands.repo.js';
import type { ProductBrandQuery } from './product-brands.schemas.js';

export class ProductBrandsService {
  constructor(private readonly repo: ProductBrandsRepo) {}

  list(query: ProductBrandQuery) {
    const page = this.repo.page(query.name, query);
    return { product_brands: page.items.map(toProductBrand), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.brandById(id);
    if (!row) throw notFound('product-brands', id);
    return toProductBrand(row);
  }
}
