import type { Db } from '../../db/open.js';
import { ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { RESERVATION_SOURCE_SORT_FIELDS } from './reservation-sources.schemas.js';
import type { ProductReservationSourcesRow } from '../../db/tables.generated.js';

export type ReservationSourceRow = Pick<ProductReservationSourcesRow, 'id' | 'name' | 'state' | 'last_change'>;

/** Sortable first-level fields of ProductReservationSource and their columns. */
const SORTABLE: Record<(typeof RESERVATION_SOURCE_SORT_FIELDS)[number], string> = { product_reservation_source_id: 'id', name: 'name' };

export class ReservationSourcesRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], ReservationSourceRow>('SELECT id, name, state, last_change FROM product_reservation_sources WHERE id = ?');
  }

  sourceById(id: string): ReservationSourceRow | undefined {
    return this.one.get(id);
  }

  page(paging: Paging): Page<ReservationSourceRow> {
    return this.lists.page<ReservationSourceRow>(
      {
        from: 'product_reservation_sources',
        select: 'id, name, state, last_change',
        filters: [],
        sortable: SORTABLE,
        defaultSort: 'product_reservation_source_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'product_reservation_sources'>): void {
    tx.insert('product_reservation_sources', row);
  }
}
