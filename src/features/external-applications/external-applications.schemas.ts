import { SortedPaging } from '../../core/paging.js';
import { z } from 'zod';
import { Collection, StoreTimestamp } from '../../core/schemas.js';

/** A customer external application as the API answers it. */
export const ExternalApplicationAnswer = z.object({
  external_application_id: z.string(),
  name: z.string(),
  state: z.number().int(),
  last_change: StoreTimestamp,
});
export type ExternalApplicationAnswer = z.infer<typeof ExternalApplicationAnswer>;
export const ExternalApplicationsAnswer = Collection('customer_external_applications', ExternalApplicationAnswer);

/** The fields this list sorts by: those an index keeps in order. */
export const EXTERNAL_APPLICATION_SORT_FIELDS = ['external_application_id', 'name'] as const;
export const ExternalApplicationQuery = SortedPaging(EXTERNAL_APPLICATION_SORT_FIELDS);
export type ExternalApplicationQuery = z.infer<typeof ExternalApplicationQuery>;
