import type { Db } from '../../db/open.js';
import { contains, equals, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PRODUCT_GROUP_SORT_FIELDS, ProductGroupQuery } from './product-groups.schemas.js';
import type { ProductGroupsRow } from '../../db/tables.generated.js';

export type ProductGroupRow = Omit<ProductGroupsRow, 'hlc'>;

const COLUMNS = 'id, name, parent_id, code, external_id, store_id, state, last_change';

/** Sortable first-level fields of ProductGroup and their columns. */
const SORTABLE: Record<(typeof PRODUCT_GROUP_SORT_FIELDS)[number], string> = {
  product_group_id: 'id',
  name: 'name',
  code: 'code',
  store_id: 'store_id',
};

export class ProductGroupsRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], ProductGroupRow>(`SELECT ${COLUMNS} FROM product_groups WHERE id = ?`);
  }

  groupById(id: string): ProductGroupRow | undefined {
    return this.one.get(id);
  }

  page(filters: Pick<ProductGroupQuery, 'name' | 'store_id' | 'code'>, paging: Paging): Page<ProductGroupRow> {
    return this.lists.page<ProductGroupRow>(
      {
        from: 'product_groups',
        select: COLUMNS,
        filters: [contains('name', filters.name), equals('store_id', filters.store_id), equals('code', filters.code)],
        sortable: SORTABLE,
        defaultSort: 'product_group_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'product_groups'>): void {
    tx.insert('product_groups', row);
  }
}
