/** Subresources of a store: its property records and its store group records. */
import { SortedPaging } from '../../core/paging.js';
import { z } from 'zod';
import { Collection, JsonValue, Text, StoreTimestamp } from '../../core/schemas.js';
import { PropertyRecordAnswer } from '../property-record.schema.js';

export const PropertyRecordInput = z.object({
  property_id: Text,
  property_name: Text.optional(),
  property_value: JsonValue,
});

export const CreatePropertyRecord = z.object({ property_record: PropertyRecordInput });
export type CreatePropertyRecord = z.infer<typeof CreatePropertyRecord>;

/** An update names the record in its path; a property_id in the body must be the record's own. */
export const UpdatePropertyRecord = z.object({ property_record: PropertyRecordInput.partial({ property_id: true }) });
export type UpdatePropertyRecord = z.infer<typeof UpdatePropertyRecord>;

export const PropertyRecordPath = z.object({ store_id: z.string(), property_record_id: z.string() });

export const StoreGroupRecordAnswer = z.object({
  store_group_record_id: z.string(),
  store_id: z.string(),
  store_group_id: z.string(),
  last_change: StoreTimestamp,
});
export type StoreGroupRecordAnswer = z.infer<typeof StoreGroupRecordAnswer>;
export const StoreGroupRecordsAnswer = Collection('store_group_records', StoreGroupRecordAnswer);
export type StoreGroupRecordsAnswer = z.infer<typeof StoreGroupRecordsAnswer>;

export const PropertyRecordsAnswer = Collection('property_records', PropertyRecordAnswer);
export type PropertyRecordsAnswer = z.infer<typeof PropertyRecordsAnswer>;
export const PropertyRecordCreated = z.object({ property_record_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const PROPERTY_RECORD_SORT_FIELDS = ['property_record_id', 'property_id'] as const;
export const PropertyRecordQuery = SortedPaging(PROPERTY_RECORD_SORT_FIELDS);
export type PropertyRecordQuery = z.infer<typeof PropertyRecordQuery>;

/** The fields this list sorts by: those an index keeps in order. */
export const STORE_GROUP_RECORD_SORT_FIELDS = ['store_group_record_id', 'store_id'] as const;
export const StoreGroupRecordQuery = SortedPaging(STORE_GROUP_RECORD_SORT_FIELDS);
export type StoreGroupRecordQuery = z.infer<typeof StoreGroupRecordQuery>;
