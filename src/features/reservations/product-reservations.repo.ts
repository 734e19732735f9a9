import type { Db } from '../../db/open.js';
import { equals, ListQueries, type Filter } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { PRODUCT_RESERVATION_SORT_FIELDS } from './product-reservations.schemas.js';
import type {
  CustomersRow,
  ProductReservationSourcesRow,
  ProductReservationsRow,
  ReservationCodesRow,
  ReservationStateChangesRow,
  StoresRow,
} from '../../db/tables.generated.js';

export type ReservationStateChangeRow = Pick<ReservationStateChangesRow, 'id' | 'product_reservation_id' | 'reservation_state' | 'hlc'>;

export type ProductReservationRow = Omit<ProductReservationsRow, 'hlc'>;

export interface ReservationFilters {
  reservation_code?: number;
  customer_id?: string;
  store_id?: string;
  reservation_state?: number;
}

const COLUMNS = `id, customer_id, store_id, product_reservation_source_id, pickup_date, currency_id,
  total_price_minor, actual_state, details, state, last_change`;

/** Sortable first-level fields of ProductReservation and their columns. */
const SORTABLE: Record<(typeof PRODUCT_RESERVATION_SORT_FIELDS)[number], string> = {
  product_reservation_id: 'id',
  customer_id: 'customer_id',
  store_id: 'store_id',
  actual_state: 'actual_state',
};

export class ProductReservationsRepo {
  private readonly lists;
  private readonly one;
  private readonly codes;
  private readonly stateChanges;
  private readonly customer;
  private readonly store;
  private readonly source;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], ProductReservationRow>(`SELECT ${COLUMNS} FROM product_reservations WHERE id = ?`);
    this.codes = db.prepare<[string], Pick<ReservationCodesRow, 'code'>>(
      'SELECT code FROM reservation_codes WHERE product_reservation_id = ? ORDER BY code',
    );
    this.stateChanges = db.prepare<[string], ReservationStateChangeRow>(
      `SELECT id, product_reservation_id, reservation_state, hlc FROM reservation_state_changes
       WHERE product_reservation_id = ? ORDER BY hlc`,
    );
    this.customer = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
    this.store = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
    this.source = db.prepare<[string], Pick<ProductReservationSourcesRow, 'id'>>('SELECT id FROM product_reservation_sources WHERE id = ?');
  }

  reservationById(id: string): ProductReservationRow | undefined {
    return this.one.get(id);
  }

  reservationCodes(reservationId: string): number[] {
    return this.codes.all(reservationId).map((row) => row.code);
  }

  stateChangesOf(reservationId: string): ReservationStateChangeRow[] {
    return this.stateChanges.all(reservationId);
  }

  customerExists(id: string): boolean {
    return this.customer.get(id) !== undefined;
  }

  storeExists(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  sourceExists(id: string): boolean {
    return this.source.get(id) !== undefined;
  }

  page(filters: ReservationFilters, paging: Paging): Page<ProductReservationRow> {
    const byCode: Filter =
      filters.reservation_code === undefined
        ? undefined
        : { sql: 'id IN (SELECT product_reservation_id FROM reservation_codes WHERE code = ?)', params: [filters.reservation_code] };
    return this.lists.page<ProductReservationRow>(
      {
        from: 'product_reservations',
        select: COLUMNS,
        filters: [
          byCode,
          equals('customer_id', filters.customer_id),
          equals('store_id', filters.store_id),
          equals('actual_state', filters.reservation_state),
        ],
        sortable: SORTABLE,
        defaultSort: 'product_reservation_id',
      },
      paging,
    );
  }

  insertReservation(tx: WriteTransaction, row: WrittenRow<'product_reservations'>): void {
    tx.insert('product_reservations', row);
  }

  insertCode(tx: WriteTransaction, row: WrittenRow<'reservation_codes'>): void {
    tx.insert('reservation_codes', row);
  }

  insertStateChange(tx: WriteTransaction, row: WrittenRow<'reservation_state_changes'>): void {
    tx.insert('reservation_state_changes', row);
  }

  setActualState(tx: WriteTransaction, id: string, actualState: number): void {
    tx.update('product_reservations', id, { actual_state: actualState });
  }
}
