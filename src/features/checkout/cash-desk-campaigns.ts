/**
 * Campaign prices at the cash desk: the active campaign products shown there, held in
 * memory by product — a few hundred rows for a chain, where a query per bill item would
 * walk the campaign tables every time. Reloaded whenever campaign products or their store
 * records may have changed, which the write path's table versions tell without a query
 * (as src/loyalty/rewards-catalog.ts). A product's price at a moment in a store is that of
 * its campaign with the lowest id valid then (bounds included) and either for every store
 * or for this one.
 */
import { z } from 'zod';
import type { WritePath } from '../../db/write-path.js';
import type { CampaignPrice } from '../../loyalty/pricing.js';
import type { CashDeskCampaignRow, CheckoutRepo } from './checkout.repo.js';

interface CashDeskCampaign extends CampaignPrice {
  id: string;
  valid_from: string | null;
  valid_to: string | null;
  wellFormed: boolean;
  /** Undefined: every store. */
  stores: Set<string> | undefined;
}

/** The stores a campaign product is limited to: a JSON array of ids, as the repository reads them. */
const StoreIds = z.array(z.string());

export type PriceOfProduct = (productId: string, atIso: string, storeId: string) => CampaignPrice | undefined;

export class CashDeskCampaigns {
  private byProduct = new Map<string, CashDeskCampaign[]>();
  private version: string | undefined;

  constructor(
    private readonly repo: CheckoutRepo,
    private readonly writes: WritePath,
  ) {}

  /** Prices for one bill: the tables' versions are checked once, not once per item. */
  lookup(): PriceOfProduct {
    const version = this.writes.versions.tableVersion('campaign_products', 'campaign_product_store_records');
    if (version !== this.version) {
      this.byProduct = byProduct(this.repo.cashDeskCampaignRows());
      this.version = version;
    }
    const byProductNow = this.byProduct;
    return (productId, atIso, storeId) => priceAt(byProductNow.get(productId), atIso, storeId);
  }
}

function byProduct(rows: CashDeskCampaignRow[]): Map<string, CashDeskCampaign[]> {
  const campaigns = new Map<string, CashDeskCampaign[]>();
  for (const row of rows) {
    const storeIds = StoreIds.parse(JSON.parse(row.store_ids));
    const campaign: CashDeskCampaign = {
      id: row.id,
      value_minor: row.value_minor,
      value_type_id: row.value_type_id,
      valid_from: row.valid_from,
      valid_to: row.valid_to,
      wellFormed: row.well_formed === 1,
      stores: storeIds.length > 0 ? new Set(storeIds) : undefined,
    };
    const ofProduct = campaigns.get(row.product_id);
    if (ofProduct) ofProduct.push(campaign);
    else campaigns.set(row.product_id, [campaign]);
  }
  return campaigns;
}

/** Bounds are compared as text, as SQL compared them: ISO instants, whose text order is their time order. */
function priceAt(campaigns: CashDeskCampaign[] | undefined, atIso: string, storeId: string): CampaignPrice | undefined {
  let price: CampaignPrice | undefined;
  for (const campaign of campaigns ?? []) {
    if ((campaign.valid_from !== null && campaign.valid_from > atIso) || (campaign.valid_to !== null && campaign.valid_to < atIso)) continue;
    if (campaign.stores !== undefined && !campaign.stores.has(storeId)) continue;
    // A campaign valid here and now whose places cannot be read fails the bill, as the query per product did.
    if (!campaign.wellFormed) throw new Error(`campaign product ${campaign.id}: display_in is malformed JSON`);
    price ??= campaign;
  }
  return price;
}
