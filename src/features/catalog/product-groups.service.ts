import { notFound } from '../../core/errors.js';
import { toProductGroup } from './product-groups.mappers.js';
import type { ProductGroupsRepo } from './product-groups.repo.js';
import type { ProductGroupQuery } from './product-groups.schemas.js';

export class ProductGroupsService {
  constructor(
    private readonly repo: ProductGroupsRepo,
    private readonly timeZone: string,
  ) {}

  list(query: ProductGroupQuery) {
    const page = this.repo.page(query, query);
    return { product_groups: page.items.map((row) => toProductGroup(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.groupById(id);
    if (!row) throw notFound('product-groups', id);
    return toProductGroup(row, this.timeZone);
  }
}
