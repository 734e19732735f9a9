import type { Db } from '../../db/open.js';
import { ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PURCHASE_ITEM_TYPE_SORT_FIELDS } from './purchase-item-types.schemas.js';
import type { PurchaseItemTypesRow } from '../../db/tables.generated.js';

export type PurchaseItemTypeRow = Pick<PurchaseItemTypesRow, 'id' | 'name'>;

/** Sortable first-level fields of PurchaseItemType and their columns. */
const SORTABLE: Record<(typeof PURCHASE_ITEM_TYPE_SORT_FIELDS)[number], string> = { type_id: 'id', name: 'name' };

export class PurchaseItemTypesRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], PurchaseItemTypeRow>('SELECT id, name FROM purchase_item_types WHERE id = ?');
  }

  typeById(id: string): PurchaseItemTypeRow | undefined {
    return this.one.get(id);
  }

  page(paging: Paging): Page<PurchaseItemTypeRow> {
    return this.lists.page<PurchaseItemTypeRow>(
      { from: 'purchase_item_types', select: 'id, name', filters: [], sortable: SORTABLE, defaultSort: 'type_id' },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'purchase_item_types'>): void {
    tx.insert('purchase_item_types', row);
  }
}
