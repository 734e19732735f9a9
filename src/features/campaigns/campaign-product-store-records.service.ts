import type { WritePath } from '../../db/write-path.js';
import { invalidParam } from '../../core/errors.js';
import type { Paging } from '../../core/paging.js';
import type { IdGenerator } from '../../core/ids.js';
import { toStoreRecord } from './campaign-product-store-records.mappers.js';
import type { CampaignProductStoreRecordsRepo } from './campaign-product-store-records.repo.js';
import type { CreateStoreRecord } from './campaign-product-store-records.schemas.js';
import type { CampaignProductsService } from './campaign-products.service.js';

/** The stores a campaign product is limited to; one without records is offered everywhere. */
export class CampaignProductStoreRecordsService {
  constructor(
    private readonly repo: CampaignProductStoreRecordsRepo,
    private readonly campaignProducts: CampaignProductsService,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {}

  create(campaignProductId: string, { campaign_product_store_record: record }: CreateStoreRecord): { campaign_product_store_record_id: string } {
    this.campaignProducts.existingCampaignProduct(campaignProductId);
    const name = 'campaign_product_store_record';
    if (record.campaign_product_id !== undefined && record.campaign_product_id !== campaignProductId) {
      throw invalidParam(`${name}.campaign_product_id`, 'not_allowed_value', record.campaign_product_id, 'Must be the campaign product of the path');
    }
    if (!this.repo.storeExists(record.store_id)) throw invalidParam(`${name}.store_id`, 'not_found', record.store_id);
    const existing = this.repo.recordIdOf(campaignProductId, record.store_id);
    if (existing !== undefined) throw invalidParam(`${name}.store_id`, 'relation_already_exists', record.store_id);
    const row = { id: this.newId(), campaign_product_id: campaignProductId, store_id: record.store_id };
    this.writes.write({ kind: 'campaign-product-store-records.create', payload: { campaign_product_store_record: row } }, (tx) =>
      this.repo.insert(tx, row),
    );
    return { campaign_product_store_record_id: row.id };
  }

  list(campaignProductId: string, paging: Paging) {
    this.campaignProducts.existingCampaignProduct(campaignProductId);
    const page = this.repo.recordsOf(campaignProductId, paging);
    return { campaign_product_store_records: page.items.map(toStoreRecord), total_items: page.total };
  }
}
