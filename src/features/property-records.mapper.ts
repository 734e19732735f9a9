import { formatTimestamp } from '../core/time.js';
import type { PropertyRecordAnswer } from './property-record.schema.js';

/** A stored property record of any owner (event, store): its value kept as JSON text. */
export interface StoredPropertyRecord {
  id: string;
  property_id: string;
  property_name: string | null;
  property_value: string;
  last_change: string;
}

/** The AdditionalProperty / PropertyRecord structure of interface.md. */
export function toPropertyRecord(row: StoredPropertyRecord, timeZone: string): PropertyRecordAnswer {
  return {
    property_record_id: row.id,
    property_id: row.property_id,
    property_name: row.property_name,
    property_value: JSON.parse(row.property_value) as PropertyRecordAnswer['property_value'],
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}
