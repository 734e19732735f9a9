/** Credit records for GET /credits, filtered and sorted as the API asks. */
import type { Page, Paging } from '../../core/paging.js';
import { atLeast, atMost, contains, equals, ListQueries } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { CreditRecordsRow } from '../../db/tables.generated.js';
import type { CREDIT_SORT_FIELDS } from './credits.schemas.js';

/** A purchase's credit records have no type of their own: they are the purchase's. */
const CREDIT_TYPE = "coalesce(credit_type_id, CASE WHEN purchase_id IS NOT NULL THEN 'purchase' END)";
const COLUMNS = `id, customer_id, kind, amount_minor, purchase_id, ${CREDIT_TYPE} AS credit_type_id, partner_id, note, state, hlc`;

/** A credit record as GET /credits reads it. */
export type CreditRecordRow = Pick<
  CreditRecordsRow,
  'id' | 'customer_id' | 'kind' | 'amount_minor' | 'purchase_id' | 'credit_type_id' | 'partner_id' | 'note' | 'state' | 'hlc'
>;

const SORTABLE: Record<(typeof CREDIT_SORT_FIELDS)[number], string> = { credit_id: 'id' };

export interface CreditFilters {
  customer_id?: string;
  credit_type_id?: string;
  created_from?: string;
  created_to?: string;
  note?: string;
}

export class CreditPages {
  private readonly lists;
  private readonly one;
  private readonly collections;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], CreditRecordRow>(`SELECT ${COLUMNS} FROM credit_records WHERE id = ?`);
    this.collections = db.prepare<[string], Pick<CreditRecordsRow, 'id' | 'amount_minor'>>(
      "SELECT id, amount_minor FROM credit_records WHERE customer_id = ? AND kind = 'collection' AND state = 1 ORDER BY hlc DESC",
    );
  }

  byId(id: string): CreditRecordRow | undefined {
    return this.one.get(id);
  }

  /** A customer's credit collections this node holds, newest first. */
  collectionsNewestFirst(customerId: string): { id: string; amount_minor: number }[] {
    return this.collections.all(customerId);
  }

  page(filters: CreditFilters, paging: Paging): Page<CreditRecordRow> {
    return this.lists.page(
      {
        from: 'credit_records',
        select: COLUMNS,
        filters: [
          equals('customer_id', filters.customer_id),
          equals(CREDIT_TYPE, filters.credit_type_id),
          atLeast('created_at', filters.created_from),
          atMost('created_at', filters.created_to),
          contains('note', filters.note),
        ],
        sortable: SORTABLE,
        defaultSort: 'credit_id',
      },
      paging,
    );
  }
}
