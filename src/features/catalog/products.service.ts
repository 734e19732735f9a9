import { notFound } from '../../core/errors.js';
import { toProduct } from './products.mappers.js';
import type { ProductsRepo, ProductRow } from './products.repo.js';
import type { ProductQuery } from './products.schemas.js';

export class ProductsService {
  constructor(
    private readonly repo: ProductsRepo,
    private readonly timeZone: string,
  ) {}

  list(query: ProductQuery) {
    const listCode = query.external_type_code;
    const external = query.external_id === undefined ? undefined : { list_code: listCode, code: query.external_id };
    const page = this.repo.page({ name: query.name, code: query.code, external }, query);
    return { products: page.items.map((row) => this.toWire(row, listCode)), total_items: page.total };
  }

  get(id: string, listCode: string) {
    const row = this.repo.productById(id);
    if (!row) throw notFound('products', id);
    return this.toWire(row, listCode);
  }

  private toWire(row: ProductRow, listCode: string) {
    return toProduct(row, this.repo.externalIdOf(row.id, listCode), this.timeZone);
  }
}
