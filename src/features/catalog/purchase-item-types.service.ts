import type { Paging } from '../../http/paging.js';
import { toPurchaseItemType } from './purchase-item-types.mappers.js';
import type { PurchaseItemTypesRepo } from './purchase-item-types.repo.js';

export class PurchaseItemTypesService {
  constructor(private readonly repo: PurchaseItemTypesRepo) {}

  list(paging: Paging) {
    const page = this.repo.page(paging);
    return { purchase_item_types: page.items.map(toPurchaseItemType), total_items: page.total };
  }
}
