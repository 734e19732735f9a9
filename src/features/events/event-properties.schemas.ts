import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Flag, LookupState, StoreTimestamp, Text } from '../../core/schemas.js';

export const EventPropertyPath = z.object({ event_property_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const EVENT_PROPERTY_SORT_FIELDS = ['property_id', 'name'] as const;
export const EventPropertyQuery = SortedPaging(EVENT_PROPERTY_SORT_FIELDS).extend({ name: Text.optional() });
export type EventPropertyQuery = z.infer<typeof EventPropertyQuery>;

/** An entry of the `items` column: a value of a multi-valued property. */
export const PropertyItem = z.object({ id: z.string(), name: z.string(), state: z.number() });

/** An event property as master data loads it (`loyaltyd import event-properties`); the API only reads them. */
export const EventPropertyRecord = z.object({
  property_id: Text,
  name: Text,
  description: Text.nullable().optional(),
  data_type: Text,
  items: z.array(PropertyItem).max(1000).optional(),
  is_required: Flag.optional(),
  is_unique: Flag.optional(),
  state: LookupState.optional(),
});
export type EventPropertyRecord = z.infer<typeof EventPropertyRecord>;

/** The Property structure as the API answers it; is_required and is_unique are 0 or 1 as interface.md gives them. */
export const EventPropertyAnswer = z.object({
  property_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  data_type: z.string(),
  items: z.array(PropertyItem),
  is_required: z.number().int(),
  is_unique: z.number().int(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type EventPropertyAnswer = z.infer<typeof EventPropertyAnswer>;
export const EventPropertiesAnswer = Collection('event_properties', EventPropertyAnswer);
