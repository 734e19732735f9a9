import { atLeast, atMost, equals, ListQueries, type Filter } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PointRecordsRow, PurchaseItemsRow, PurchasesRow, VoucherApplicationsRow } from '../../db/tables.generated.js';
import type { PURCHASE_SORT_FIELDS } from './purchases.schemas.js';

/** A purchase's customer: set at the till, or the first assignment by HLC (DESIGN §5). */
const CUSTOMER = '(SELECT coalesce(p.customer_id, (SELECT customer_id FROM purchase_assignments WHERE purchase_id = p.id ORDER BY hlc LIMIT 1)))';
const COLUMNS = `p.id, ${CUSTOMER} AS customer_id, p.store_id, p.external_purchase_id, p.payment_time, p.type_id, p.total_price_minor, p.currency_id,
  p.card_number, p.cashdesk_number, (SELECT count(*) FROM purchase_items i WHERE i.purchase_id = p.id) AS items_count, p.last_change`;

const SORTABLE: Record<(typeof PURCHASE_SORT_FIELDS)[number], string> = { purchase_id: 'p.id', payment_time: 'p.payment_time' };

/**
 * A customer's purchases, by index: those the till named them on, and those assigned to them
 * later (purchase_assignments_by_customer), of which CUSTOMER keeps the ones whose first assignment is theirs.
 * CUSTOMER alone read every purchase the node holds.
 */
function ofCustomer(customerId: string | undefined): Filter {
  if (customerId === undefined) return undefined;
  return {
    sql: {
      sqlite: `(p.customer_id = ? OR p.id IN (SELECT purchase_id FROM purchase_assignments WHERE customer_id = ?)) AND ${CUSTOMER} = ?`,
      postgres: `p.id IN (SELECT id FROM purchases WHERE customer_id = ? UNION SELECT purchase_id FROM purchase_assignments WHERE customer_id = ?) AND ${CUSTOMER} = ?`,
    },
    params: [customerId, customerId, customerId],
  };
}

/** A purchase as COLUMNS reads it: its customer by assignment, and how many items it has. */
export type PurchaseRow = Pick<
  PurchasesRow,
  | 'id'
  | 'customer_id'
  | 'store_id'
  | 'external_purchase_id'
  | 'payment_time'
  | 'type_id'
  | 'total_price_minor'
  | 'currency_id'
  | 'card_number'
  | 'cashdesk_number'
  | 'last_change'
> & { items_count: number };
export type PurchaseItemRow = Omit<PurchaseItemsRow, 'hlc' | 'last_change'>;

export interface PurchaseFilters {
  store_id?: string;
  customer_id?: string;
  type_id?: string;
  paid_from?: string;
  paid_to?: string;
}

export class PurchasesRepo {
  private readonly one;
  private readonly items;
  private readonly pointIds;
  private readonly voucherIds;
  private readonly lists;

  constructor(db: Db) {
    this.one = db.prepare<[string], PurchaseRow>(`SELECT ${COLUMNS} FROM purchases p WHERE p.id = ?`);
    // In bill order: the items' stamps increase within the write that stored them.
    this.items = db.prepare<[string], PurchaseItemRow>(
      'SELECT id, purchase_id, product_id, external_id, purchase_item_type_id, price_minor, amount_milli, vat_rate, additional_properties FROM purchase_items WHERE purchase_id = ? ORDER BY hlc',
    );
    this.pointIds = db.prepare<[string], Pick<PointRecordsRow, 'id'>>('SELECT id FROM point_records WHERE purchase_id = ? ORDER BY id');
    this.voucherIds = db.prepare<[string], Pick<VoucherApplicationsRow, 'voucher_id'>>(
      'SELECT DISTINCT voucher_id FROM voucher_applications WHERE purchase_id = ? ORDER BY voucher_id',
    );
    this.lists = new ListQueries(db);
  }

  byId(id: string): PurchaseRow | undefined {
    return this.one.get(id);
  }

  itemsOf(purchaseId: string): PurchaseItemRow[] {
    return this.items.all(purchaseId);
  }

  pointRecordIdsOf(purchaseId: string): string[] {
    return this.pointIds.all(purchaseId).map((row) => row.id);
  }

  voucherIdsOf(purchaseId: string): string[] {
    return this.voucherIds.all(purchaseId).map((row) => row.voucher_id);
  }

  page(filters: PurchaseFilters, paging: Paging): Page<PurchaseRow> {
    return this.lists.page(
      {
        from: 'purchases p',
        select: COLUMNS,
        filters: [
          equals('p.store_id', filters.store_id),
          ofCustomer(filters.customer_id),
          equals('p.type_id', filters.type_id),
          atLeast('p.payment_time', filters.paid_from),
          atMost('p.payment_time', filters.paid_to),
        ],
        sortable: SORTABLE,
        defaultSort: 'purchase_id',
        listedAs: 'p',
      },
      paging,
    );
  }
}
