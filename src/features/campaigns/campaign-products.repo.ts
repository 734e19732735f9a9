import type { Dialect } from '../../db/dialect.js';
import type { Db } from '../../db/open.js';
import { atLeast, atMost, contains, equals, ListQueries, oneOf, type Filter } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CAMPAIGN_PRODUCT_SORT_FIELDS } from './campaign-products.schemas.js';
import type { CampaignProductsRow, CampaignsRow, ProductsRow } from '../../db/tables.generated.js';

export type CampaignProductRow = Omit<CampaignProductsRow, 'name' | 'hlc'>;

export interface CampaignProductFilters {
  name?: string;
  code?: string;
  display_in?: string;
  type_ids?: string[];
  store_id?: string;
  value_type_id?: number;
  /** ISO instants. */
  valid_now?: { at: string; valid: boolean };
  valid_from?: string;
  valid_to?: string;
}

const COLUMNS = [
  'id',
  'product_id',
  'campaign_id',
  'currency_id',
  'value_minor',
  'value_type_id',
  'valid_from',
  'valid_to',
  'display_in',
  'type_id',
  'presentation_data',
  'state',
  'last_change',
];

/** Sortable first-level fields of CampaignProduct and their columns. */
const SORTABLE: Record<(typeof CAMPAIGN_PRODUCT_SORT_FIELDS)[number], string> = {
  campaign_product_id: 'c.id',
  product_id: 'c.product_id',
  value_type_id: 'c.value_type_id',
  valid_from: 'c.valid_from',
  valid_to: 'c.valid_to',
  type_id: 'c.type_id',
};

/** The campaign product's own (presentation) name or its product's name. */
function named(name: string | undefined): Filter {
  const own = contains('c.name', name);
  const product = contains('p.name', name);
  if (own === undefined || product === undefined) return undefined;
  const either = (dialect: Dialect) => `(${spelling(own, dialect)} OR ${spelling(product, dialect)})`;
  return { sql: { sqlite: either('sqlite'), postgres: either('postgres') }, params: [...own.params, ...product.params] };
}

function spelling(filter: NonNullable<Filter>, dialect: Dialect): string {
  return typeof filter.sql === 'string' ? filter.sql : filter.sql[dialect];
}

/** Places are a JSON array of text (the service writes them), each engine reading it with its own function. */
function shownIn(place: string | undefined): Filter {
  if (place === undefined) return undefined;
  return {
    sql: {
      sqlite: 'EXISTS (SELECT 1 FROM json_each(c.display_in) d WHERE d.value = ?)',
      postgres: 'EXISTS (SELECT 1 FROM json_array_elements_text(CAST(c.display_in AS json)) AS d(value) WHERE d.value = ?)',
    },
    params: [place],
  };
}

/** A campaign product without store records is offered in every store (as checkout reads it). */
function offeredIn(storeId: string | undefined): Filter {
  if (storeId === undefined) return undefined;
  return {
    sql: `(NOT EXISTS (SELECT 1 FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id)
           OR EXISTS (SELECT 1 FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id AND s.store_id = ?))`,
    params: [storeId],
  };
}

function validity(valid: CampaignProductFilters['valid_now']): Filter {
  if (valid === undefined) return undefined;
  const within = '(c.valid_from IS NULL OR c.valid_from <= ?) AND (c.valid_to IS NULL OR c.valid_to >= ?)';
  return { sql: valid.valid ? `(${within})` : `NOT (${within})`, params: [valid.at, valid.at] };
}

export class CampaignProductsRepo {
  private readonly lists;
  private readonly one;
  private readonly product;
  private readonly campaign;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], CampaignProductRow>(`SELECT ${COLUMNS.join(', ')} FROM campaign_products WHERE id = ?`);
    this.product = db.prepare<[string], Pick<ProductsRow, 'id'>>('SELECT id FROM products WHERE id = ?');
    this.campaign = db.prepare<[string], Pick<CampaignsRow, 'id'>>('SELECT id FROM campaigns WHERE id = ?');
  }

  campaignProductById(id: string): CampaignProductRow | undefined {
    return this.one.get(id);
  }

  productExists(id: string): boolean {
    return this.product.get(id) !== undefined;
  }

  campaignExists(id: string): boolean {
    return this.campaign.get(id) !== undefined;
  }

  page(filters: CampaignProductFilters, paging: Paging): Page<CampaignProductRow> {
    return this.lists.page<CampaignProductRow>(
      {
        from: 'campaign_products c JOIN products p ON p.id = c.product_id',
        select: COLUMNS.map((column) => `c.${column}`).join(', '),
        filters: [
          named(filters.name),
          equals('p.code', filters.code),
          shownIn(filters.display_in),
          oneOf('c.type_id', filters.type_ids),
          offeredIn(filters.store_id),
          equals('c.value_type_id', filters.value_type_id),
          validity(filters.valid_now),
          atLeast('c.valid_from', filters.valid_from),
          atMost('c.valid_to', filters.valid_to),
        ],
        sortable: SORTABLE,
        defaultSort: 'campaign_product_id',
        listedAs: 'c',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'campaign_products'>): void {
    tx.insert('campaign_products', row);
  }
}
