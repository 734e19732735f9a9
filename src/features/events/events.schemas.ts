import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, JsonValue, QueryArray, QueryBoolean, StoreTimestamp, Text } from '../../core/schemas.js';
import { PropertyRecordAnswer } from '../property-record.schema.js';

/** External ids arrive as strings or, in the OpenAPI examples, as numbers. */
const ExternalId = z.union([Text, z.number().transform(String)]);

export const NewEvent = z.object({
  event_type_id: Text,
  customer_id: Id,
  external_id: ExternalId,
  secondary_external_id: ExternalId.nullable().optional(),
  /** Serialized JSON; the OpenAPI file also lets an array or an object through, stored as its JSON text. */
  data: z
    .union([z.string(), z.array(z.string()), z.record(z.string(), JsonValue)])
    .nullable()
    .optional(),
  created_at: z.string().optional(),
});
export type NewEvent = z.infer<typeof NewEvent>;

export const NewPropertyRecord = z.object({
  property_id: Text,
  property_value: JsonValue.optional(),
});
export type NewPropertyRecord = z.infer<typeof NewPropertyRecord>;

export const CreateEvent = z.object({
  event: NewEvent,
  property_records: z.array(NewPropertyRecord).max(1000).optional(),
});
export type CreateEvent = z.infer<typeof CreateEvent>;

export const EventPath = z.object({ event_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const EVENT_SORT_FIELDS = ['event_id', 'external_id', 'created_at'] as const;
export const EventQuery = SortedPaging(EVENT_SORT_FIELDS).extend({
  event_type_id: Text.optional(),
  event_type_ids: QueryArray.pipe(z.array(z.string()).max(1000)).optional(),
  customer_id: Id.optional(),
  external_id: Text.optional(),
  time_from: Text.optional(),
  time_to: Text.optional(),
  include_property_records: QueryBoolean.optional(),
});
export type EventQuery = z.infer<typeof EventQuery>;

/** The Event structure of the OpenAPI file as the API answers it, keys in its order; `data` is JSON text. */
export const EventAnswer = z.object({
  event_id: z.string(),
  event_type_id: z.string(),
  customer_id: z.string(),
  external_id: z.string(),
  data: z.string().nullable(),
  created_at: StoreTimestamp,
  secondary_external_id: z.string().nullable(),
  state: z.number().int(),
});
export type EventAnswer = z.infer<typeof EventAnswer>;
export const EventsAnswer = Collection('events', EventAnswer);
export const EventPropertyRecordsAnswer = Collection('property_records', PropertyRecordAnswer);
export const EventCreated = z.object({ event_id: z.string() });
