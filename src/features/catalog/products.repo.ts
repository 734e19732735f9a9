import type { Db } from '../../db/open.js';
import { contains, equals, ListQueries, type Filter } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PRODUCT_SORT_FIELDS } from './products.schemas.js';
import type { ProductExternalIdsRow, ProductsRow } from '../../db/tables.generated.js';

export type ProductRow = Omit<ProductsRow, 'hlc'>;

export interface ProductFilters {
  name?: string;
  code?: string;
  external?: { list_code: string; code: string };
}

const COLUMNS = 'id, name, code, product_group_id, product_brand_id, additional_properties, state, last_change';

/**
 * Sortable first-level fields of Product and their columns. `external_id` depends on the
 * list asked for, so it is no column and not sortable.
 */
const SORTABLE: Record<(typeof PRODUCT_SORT_FIELDS)[number], string> = { product_id: 'id', name: 'name', code: 'code' };

function withExternalId(external: ProductFilters['external']): Filter {
  if (external === undefined) return undefined;
  return { sql: 'id IN (SELECT product_id FROM product_external_ids WHERE list_code = ? AND code = ?)', params: [external.list_code, external.code] };
}

export class ProductsRepo {
  private readonly lists;
  private readonly one;
  private readonly externalId;
  private readonly externalIdHolder;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], ProductRow>(`SELECT ${COLUMNS} FROM products WHERE id = ?`);
    // A product may carry several codes in one list; the first recorded one is shown.
    this.externalId = db.prepare<[string, string], Pick<ProductExternalIdsRow, 'code'>>(
      'SELECT code FROM product_external_ids WHERE product_id = ? AND list_code = ? ORDER BY id LIMIT 1',
    );
    this.externalIdHolder = db.prepare<[string, string], Pick<ProductExternalIdsRow, 'product_id'>>(
      'SELECT product_id FROM product_external_ids WHERE list_code = ? AND code = ?',
    );
  }

  productById(id: string): ProductRow | undefined {
    return this.one.get(id);
  }

  externalIdOf(productId: string, listCode: string): string | null {
    return this.externalId.get(productId, listCode)?.code ?? null;
  }

  /** The product a code of a list of external ids names, if any: a code names one product per list. */
  productByExternalId(listCode: string, code: string): string | undefined {
    return this.externalIdHolder.get(listCode, code)?.product_id;
  }

  insert(tx: WriteTransaction, row: WrittenRow<'products'>): void {
    tx.insert('products', row);
  }

  insertExternalId(tx: WriteTransaction, row: WrittenRow<'product_external_ids'>): void {
    tx.insert('product_external_ids', row);
  }

  page(filters: ProductFilters, paging: Paging): Page<ProductRow> {
    return this.lists.page<ProductRow>(
      {
        from: 'products',
        select: COLUMNS,
        filters: [contains('name', filters.name), equals('code', filters.code), withExternalId(filters.external)],
        sortable: SORTABLE,
        defaultSort: 'product_id',
      },
      paging,
    );
  }
}
