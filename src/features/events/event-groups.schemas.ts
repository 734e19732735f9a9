import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, LookupState, Text } from '../../core/schemas.js';

export const EventGroupPath = z.object({ event_group_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const EVENT_GROUP_SORT_FIELDS = ['event_group_id', 'name', 'text_id'] as const;
export const EventGroupQuery = SortedPaging(EVENT_GROUP_SORT_FIELDS).extend({ name: Text.optional(), text_id: Text.optional() });
export type EventGroupQuery = z.infer<typeof EventGroupQuery>;

/** An event group as master data loads it (`loyaltyd import event-groups`); the API only reads them. */
export const EventGroupRecord = z.object({
  event_group_id: Id.optional(),
  name: Text,
  text_id: Text,
  state: LookupState.optional(),
});
export type EventGroupRecord = z.infer<typeof EventGroupRecord>;

export const EventGroupAnswer = z.object({ event_group_id: z.string(), name: z.string(), text_id: z.string(), state: z.number().int() });
export type EventGroupAnswer = z.infer<typeof EventGroupAnswer>;
export const EventGroupsAnswer = Collection('event_groups', EventGroupAnswer);
