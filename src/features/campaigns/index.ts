/**
 * Campaigns and their products (`/campaigns`, `/campaign-products`), with the stores a campaign
 * product is limited to (its campaign-product store records; one without is offered everywhere):
 * the campaign prices a till's bill is priced with. Head office's data, written at the hub and
 * replicated to every store.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { CampaignProductStoreRecordsRepo } from './campaign-product-store-records.repo.js';
import { CampaignProductStoreRecordsService } from './campaign-product-store-records.service.js';
import { CampaignProductsRepo } from './campaign-products.repo.js';
import { campaignProductsRoutes } from './campaign-products.routes.js';
import { CampaignProductsService } from './campaign-products.service.js';
import { CampaignsRepo } from './campaigns.repo.js';
import { campaignsRoutes } from './campaigns.routes.js';
import { CampaignsService } from './campaigns.service.js';

export const campaignsFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'timeZone'>> = ({
  db,
  writes,
  newId,
  clock,
  timeZone,
}) => {
  const products = new CampaignProductsService({
    repo: new CampaignProductsRepo(db),
    writes,
    newId,
    clock,
    timeZone,
  });
  const storeRecords = new CampaignProductStoreRecordsService(new CampaignProductStoreRecordsRepo(db), products, writes, newId);
  return [
    ...campaignsRoutes(new CampaignsService(new CampaignsRepo(db), writes, newId, timeZone)),
    ...campaignProductsRoutes(products, storeRecords),
  ];
};
