import { formatTimestamp } from '../../core/time.js';
import type { CustomerSourceRecordRow } from './customer-source-records.repo.js';
import type { CustomerSourceRecordAnswer } from './customer-source-records.schemas.js';

export function toCustomerSourceRecord(row: CustomerSourceRecordRow, timeZone: string): CustomerSourceRecordAnswer {
  return {
    customer_source_record_id: row.id,
    customer_source_id: row.customer_source_id,
    customer_id: row.customer_id,
    external_id: row.external_id,
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}
