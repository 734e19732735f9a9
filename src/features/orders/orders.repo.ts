import type { Db } from '../../db/open.js';
import { equals, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { ORDER_SORT_FIELDS } from './orders.schemas.js';
import type { CustomersRow, OrdersRow, StoresRow } from '../../db/tables.generated.js';

export type OrderRow = Omit<OrdersRow, 'hlc'>;

const COLUMNS = 'id, order_number, customer_id, currency_id, total_price_minor, details, state, last_change';

/** Sortable first-level fields of Order and their columns. */
const SORTABLE: Record<(typeof ORDER_SORT_FIELDS)[number], string> = { order_id: 'id', customer_id: 'customer_id' };

export class OrdersRepo {
  private readonly lists;
  private readonly one;
  private readonly customer;
  private readonly store;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = ?`);
    this.customer = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
    this.store = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
  }

  orderById(id: string): OrderRow | undefined {
    return this.one.get(id);
  }

  customerExists(id: string): boolean {
    return this.customer.get(id) !== undefined;
  }

  storeExists(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  page(filters: { customer_id?: string; state?: number }, paging: Paging): Page<OrderRow> {
    return this.lists.page<OrderRow>(
      {
        from: 'orders',
        select: COLUMNS,
        filters: [equals('customer_id', filters.customer_id), equals('state', filters.state)],
        sortable: SORTABLE,
        defaultSort: 'order_id',
      },
      paging,
    );
  }

  insertOrder(tx: WriteTransaction, row: WrittenRow<'orders'>): void {
    tx.insert('orders', row);
  }
}
