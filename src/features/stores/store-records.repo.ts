import type { Db } from '../../db/open.js';
import { equals, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { STORE_GROUP_RECORD_SORT_FIELDS, PROPERTY_RECORD_SORT_FIELDS } from './store-records.schemas.js';
import type { StoreGroupRecordsRow, StorePropertyRecordsRow } from '../../db/tables.generated.js';

export type StoreGroupRecordRow = Omit<StoreGroupRecordsRow, 'hlc'>;

export type PropertyRecordRow = Omit<StorePropertyRecordsRow, 'hlc'>;

const PROPERTY_COLUMNS = 'id, store_id, property_id, property_name, property_value, last_change';
const GROUP_COLUMNS = 'id, store_id, store_group_id, last_change';

/** Sortable first-level fields of PropertyRecord and StoreGroupRecord and their columns. */
const PROPERTY_SORTABLE: Record<(typeof PROPERTY_RECORD_SORT_FIELDS)[number], string> = { property_record_id: 'id', property_id: 'property_id' };
const GROUP_SORTABLE: Record<(typeof STORE_GROUP_RECORD_SORT_FIELDS)[number], string> = { store_group_record_id: 'id', store_id: 'store_id' };

export class StoreRecordsRepo {
  private readonly lists;
  private readonly property;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.property = db.prepare<[string], PropertyRecordRow>(`SELECT ${PROPERTY_COLUMNS} FROM store_property_records WHERE id = ?`);
  }

  propertyRecordById(id: string): PropertyRecordRow | undefined {
    return this.property.get(id);
  }

  propertyRecordsOf(storeId: string, paging: Paging): Page<PropertyRecordRow> {
    return this.lists.page<PropertyRecordRow>(
      {
        from: 'store_property_records',
        select: PROPERTY_COLUMNS,
        filters: [equals('store_id', storeId)],
        sortable: PROPERTY_SORTABLE,
        defaultSort: 'property_id',
      },
      paging,
    );
  }

  groupRecordsOf(storeId: string, paging: Paging): Page<StoreGroupRecordRow> {
    return this.lists.page<StoreGroupRecordRow>(
      {
        from: 'store_group_records',
        select: GROUP_COLUMNS,
        filters: [equals('store_id', storeId)],
        sortable: GROUP_SORTABLE,
        defaultSort: 'store_group_record_id',
      },
      paging,
    );
  }

  insertPropertyRecord(tx: WriteTransaction, row: WrittenRow<'store_property_records'>): void {
    tx.insert('store_property_records', row);
  }

  updatePropertyRecord(tx: WriteTransaction, id: string, changes: Partial<WrittenRow<'store_property_records'>>): void {
    tx.update('store_property_records', id, changes);
  }

  removePropertyRecord(tx: WriteTransaction, id: string): void {
    tx.remove('store_property_records', id);
  }
}
