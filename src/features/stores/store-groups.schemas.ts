/**
 * Store groups and the records that put a store in one, as master data loads them
 * (`loyaltyd import store-groups|store-group-records`); the API only reads a store's records.
 */
import { z } from 'zod';
import { Id, Text } from '../../core/schemas.js';

export const ImportedStoreGroup = z.object({ store_group_id: Id.optional(), name: Text });
export type ImportedStoreGroup = z.infer<typeof ImportedStoreGroup>;

export const ImportedStoreGroupRecord = z.object({
  store_group_record_id: Id.optional(),
  store_id: Id,
  store_group_id: Id,
});
export type ImportedStoreGroupRecord = z.infer<typeof ImportedStoreGroupRecord>;
