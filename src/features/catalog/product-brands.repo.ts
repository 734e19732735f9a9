import type { Db } from '../../db/open.js';
import { contains, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PRODUCT_BRAND_SORT_FIELDS } from './product-brands.schemas.js';
import type { ProductBrandsRow } from '../../db/tables.generated.js';

export type ProductBrandRow = Pick<ProductBrandsRow, 'id' | 'name' | 'external_id'>;

const COLUMNS = 'id, name, external_id';

/** Sortable first-level fields of ProductBrand and their columns. */
const SORTABLE: Record<(typeof PRODUCT_BRAND_SORT_FIELDS)[number], string> = { product_brand_id: 'id', name: 'name' };

export class ProductBrandsRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], ProductBrandRow>(`SELECT ${COLUMNS} FROM product_brands WHERE id = ?`);
  }

  brandById(id: string): ProductBrandRow | undefined {
    return this.one.get(id);
  }

  page(name: string | undefined, paging: Paging): Page<ProductBrandRow> {
    return this.lists.page<ProductBrandRow>(
      {
        from: 'product_brands',
        select: COLUMNS,
        filters: [contains('name', name)],
        sortable: SORTABLE,
        defaultSort: 'product_brand_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'product_brands'>): void {
    tx.insert('product_brands', row);
  }
}
