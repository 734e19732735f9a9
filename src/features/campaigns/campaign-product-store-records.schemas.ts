import { SortedPaging } from '../../core/paging.js';
import { z } from 'zod';
import { Collection, Text } from '../../core/schemas.js';

/** The path names the campaign product; a campaign_product_id in the body must be the same. */
export const CreateStoreRecord = z.object({
  campaign_product_store_record: z.object({ store_id: Text, campaign_product_id: Text.optional() }),
});
export type CreateStoreRecord = z.infer<typeof CreateStoreRecord>;

/** The CampaignProductStoreRecord structure of the OpenAPI file, as the API answers it. */
export const StoreRecordAnswer = z.object({ campaign_product_store_record_id: z.string(), store_id: z.string(), campaign_product_id: z.string() });
export type StoreRecordAnswer = z.infer<typeof StoreRecordAnswer>;
export const StoreRecordsAnswer = Collection('campaign_product_store_records', StoreRecordAnswer);
export const StoreRecordCreated = z.object({ campaign_product_store_record_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const CAMPAIGN_PRODUCT_STORE_RECORD_SORT_FIELDS = ['campaign_product_store_record_id', 'store_id'] as const;
export const CampaignProductStoreRecordQuery = SortedPaging(CAMPAIGN_PRODUCT_STORE_RECORD_SORT_FIELDS);
export type CampaignProductStoreRecordQuery = z.infer<typeof CampaignProductStoreRecordQuery>;
