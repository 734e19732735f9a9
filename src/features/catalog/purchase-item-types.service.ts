import type { WritePath } from '../../db/write-path.js';
import { invalidParam } from '../../core/errors.js';
import type { Paging } from '../../core/paging.js';
import type { IdGenerator } from '../../core/ids.js';
import { toPurchaseItemType } from './purchase-item-types.mappers.js';
import type { PurchaseItemTypesRepo } from './purchase-item-types.repo.js';
import type { PurchaseItemTypeRecord } from './purchase-item-types.schemas.js';

export class PurchaseItemTypesService {
  constructor(
    private readonly repo: PurchaseItemTypesRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {}

  list(paging: Paging) {
    const page = this.repo.page(paging);
    return { purchase_item_types: page.items.map(toPurchaseItemType), total_items: page.total };
  }

  /** The API only reads purchase-item types; `loyaltyd import` loads them as master data. */
  importRecord(record: PurchaseItemTypeRecord): void {
    const id = record.type_id ?? this.newId();
    if (this.repo.typeById(id)) throw invalidParam('type_id', 'already_exists', id);
    const row = { id, name: record.name };
    this.writes.write(null, (tx) => this.repo.insert(tx, row));
  }
}
