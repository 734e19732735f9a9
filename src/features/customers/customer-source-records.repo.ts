import { equals, ListQueries, oneOf } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CustomerSourceRecordsRow } from '../../db/tables.generated.js';
import type { CUSTOMER_SOURCE_RECORD_SORT_FIELDS } from './customer-source-records.schemas.js';

const COLUMNS = 'id, customer_id, customer_source_id, external_id, last_change';

export type CustomerSourceRecordRow = Omit<CustomerSourceRecordsRow, 'hlc'>;

/** Sortable first-level fields of CustomerSourceRecord and their columns. */
const SORTABLE: Record<(typeof CUSTOMER_SOURCE_RECORD_SORT_FIELDS)[number], string> = { customer_source_record_id: 'id', external_id: 'external_id' };

export interface CustomerSourceRecordFilters {
  customer_id?: string;
  customer_source_id?: string;
  external_ids?: string[];
}

export class CustomerSourceRecordsRepo {
  private readonly ofCustomerAndSource;
  private readonly lists;

  constructor(db: Db) {
    this.ofCustomerAndSource = db.prepare<[string, string], Pick<CustomerSourceRecordsRow, 'id'>>(
      'SELECT id FROM customer_source_records WHERE customer_id = ? AND customer_source_id = ?',
    );
    this.lists = new ListQueries(db);
  }

  idOfCustomerAndSource(customerId: string, customerSourceId: string): string | undefined {
    return this.ofCustomerAndSource.get(customerId, customerSourceId)?.id;
  }

  page(filters: CustomerSourceRecordFilters, paging: Paging): Page<CustomerSourceRecordRow> {
    return this.lists.page(
      {
        from: 'customer_source_records',
        select: COLUMNS,
        filters: [
          equals('customer_id', filters.customer_id),
          equals('customer_source_id', filters.customer_source_id),
          oneOf('external_id', filters.external_ids),
        ],
        sortable: SORTABLE,
        defaultSort: 'customer_source_record_id',
      },
      paging,
    );
  }
}
