import { formatTimestamp } from '../core/time.js';
import type { EventPropertyRecordsRow, StorePropertyRecordsRow } from '../db/tables.generated.js';
import type { PropertyRecordAnswer } from './property-record.schema.js';
import { propertyValue } from './column-codecs.js';

/** A stored property record of any owner (event, store): its value kept as JSON text. */
export type StoredPropertyRecord = Pick<
  StorePropertyRecordsRow | EventPropertyRecordsRow,
  'id' | 'property_id' | 'property_value' | 'last_change'
> & {
  property_name: string | null;
};

/** The AdditionalProperty / PropertyRecord structure of interface.md. */
export function toPropertyRecord(row: StoredPropertyRecord, timeZone: string): PropertyRecordAnswer {
  return {
    property_record_id: row.id,
    property_id: row.property_id,
    property_name: row.property_name,
    property_value: propertyValue(row.property_value),
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}
