import { z } from 'zod';
import { StoreTimestamp } from '../core/schemas.js';

/** The AdditionalProperty / PropertyRecord structure of interface.md, as the API answers it: events' and stores'. */
export const PropertyRecordAnswer = z.object({
  property_record_id: z.string(),
  property_id: z.string(),
  property_name: z.string().nullable(),
  property_value: z.json(),
  last_change: StoreTimestamp,
});
export type PropertyRecordAnswer = z.infer<typeof PropertyRecordAnswer>;
