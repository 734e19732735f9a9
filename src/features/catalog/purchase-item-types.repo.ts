import type { Db } from '../../db/open.js';
import { ListQueries } from '../../db/list-query.js';
import type { Page, Paging } from '../../http/paging.js';
import type { PurchaseItemTypeRow } from './purchase-item-types.schemas.js';

/** Sortable first-level fields of PurchaseItemType and their columns. */
const SORTABLE = { type_id: 'id', name: 'name' };

export class PurchaseItemTypesRepo {
  private readonly lists;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
  }

  page(paging: Paging): Page<PurchaseItemTypeRow> {
    return this.lists.page<PurchaseItemTypeRow>(
      { from: 'purchase_item_types', select: 'id, name', filters: [], sortable: SORTABLE, defaultSort: 'type_id', tieBreaker: 'id' },
      paging,
    );
  }
}
