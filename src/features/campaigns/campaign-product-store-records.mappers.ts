import type { StoreRecordRow } from './campaign-product-store-records.repo.js';
import type { StoreRecordAnswer } from './campaign-product-store-records.schemas.js';

/** The CampaignProductStoreRecord structure of the OpenAPI file. */
export function toStoreRecord(row: StoreRecordRow): StoreRecordAnswer {
  return { campaign_product_store_record_id: row.id, store_id: row.store_id, campaign_product_id: row.campaign_product_id };
}
