import { formatTimestamp } from '../../time.js';
import type { PropertyRecordRow, StoreGroupRecordRow } from './store-records.schemas.js';

/** The PropertyRecord structure; the value is stored as its JSON. */
export function toPropertyRecord(row: PropertyRecordRow, timeZone: string) {
  return {
    property_record_id: row.id,
    property_id: row.property_id,
    property_name: row.property_name,
    property_value: JSON.parse(row.property_value) as unknown,
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}

export function toStoreGroupRecord(row: StoreGroupRecordRow, timeZone: string) {
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
