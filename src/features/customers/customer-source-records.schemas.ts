/** Customer source records: which systems know a customer, under which external id. */
import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, QueryArray, StoreTimestamp, Text } from '../../core/schemas.js';
import { CustomerSource } from './customers.schemas.js';

/** The fields this list sorts by: those an index keeps in order. */
export const CUSTOMER_SOURCE_RECORD_SORT_FIELDS = ['customer_source_record_id', 'external_id'] as const;
export const CustomerSourceRecordsQuery = SortedPaging(CUSTOMER_SOURCE_RECORD_SORT_FIELDS).extend({
  customer_id: Text.optional(),
  external_id: Text.optional(),
  customer_source_id: Text.optional(),
  /** Takes priority over `external_id` when both are given (OpenAPI). */
  external_ids: QueryArray.pipe(z.array(z.string()).max(1000)).optional(),
});
export type CustomerSourceRecordsQuery = z.infer<typeof CustomerSourceRecordsQuery>;

export const CustomerSourceRecordsOfCustomerQuery = CustomerSourceRecordsQuery.omit({ customer_id: true });
export type CustomerSourceRecordsOfCustomerQuery = z.infer<typeof CustomerSourceRecordsOfCustomerQuery>;

export const CreateCustomerSourceRecord = z.object({ customer_source_record: CustomerSource });
export type CreateCustomerSourceRecord = z.infer<typeof CreateCustomerSourceRecord>;

export const CustomerSourceRecordPath = z.object({ customer_id: Text });

export const CustomerSourceRecordAnswer = z.object({
  customer_source_record_id: z.string(),
  customer_source_id: z.string(),
  customer_id: z.string(),
  external_id: z.string().nullable(),
  last_change: StoreTimestamp,
});
export type CustomerSourceRecordAnswer = z.infer<typeof CustomerSourceRecordAnswer>;
export const CustomerSourceRecordsAnswer = Collection('customer_source_records', CustomerSourceRecordAnswer);
export const CustomerSourceRecordCreated = z.object({ customer_source_record_id: z.string() });
