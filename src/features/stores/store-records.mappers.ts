import { formatTimestamp } from '../../core/time.js';
import type { StoreGroupRecordRow } from './store-records.repo.js';
import type { StoreGroupRecordAnswer } from './store-records.schemas.js';

export function toStoreGroupRecord(row: StoreGroupRecordRow, timeZone: string): StoreGroupRecordAnswer {
  return {
    store_group_record_id: row.id,
    store_id: row.store_id,
    store_group_id: row.store_group_id,
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}

/** interface.md AdditionalProperty: a property record is named `<property_id>:<owner_id>`. */
export function propertyRecordId(propertyId: string, storeId: string): string {
  return `${propertyId}:${storeId}`;
}
