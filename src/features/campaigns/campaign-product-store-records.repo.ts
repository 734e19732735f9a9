import type { Db } from '../../db/open.js';
import { equals, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CAMPAIGN_PRODUCT_STORE_RECORD_SORT_FIELDS } from './campaign-product-store-records.schemas.js';
import type { CampaignProductStoreRecordsRow, StoresRow } from '../../db/tables.generated.js';

export type StoreRecordRow = Pick<CampaignProductStoreRecordsRow, 'id' | 'campaign_product_id' | 'store_id'>;

const COLUMNS = 'id, campaign_product_id, store_id';

/** Sortable first-level fields of CampaignProductStoreRecord and their columns. */
const SORTABLE: Record<(typeof CAMPAIGN_PRODUCT_STORE_RECORD_SORT_FIELDS)[number], string> = {
  campaign_product_store_record_id: 'id',
  store_id: 'store_id',
};

export class CampaignProductStoreRecordsRepo {
  private readonly lists;
  private readonly store;
  private readonly pair;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.store = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
    this.pair = db.prepare<[string, string], Pick<CampaignProductStoreRecordsRow, 'id'>>(
      'SELECT id FROM campaign_product_store_records WHERE campaign_product_id = ? AND store_id = ?',
    );
  }

  storeExists(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  recordIdOf(campaignProductId: string, storeId: string): string | undefined {
    return this.pair.get(campaignProductId, storeId)?.id;
  }

  recordsOf(campaignProductId: string, paging: Paging): Page<StoreRecordRow> {
    return this.lists.page<StoreRecordRow>(
      {
        from: 'campaign_product_store_records',
        select: COLUMNS,
        filters: [equals('campaign_product_id', campaignProductId)],
        sortable: SORTABLE,
        defaultSort: 'campaign_product_store_record_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'campaign_product_store_records'>): void {
    tx.insert('campaign_product_store_records', row);
  }
}
