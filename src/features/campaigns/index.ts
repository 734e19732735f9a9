import type { Feature } from '../feature.js';
import { CampaignProductStoreRecordsRepo } from './campaign-product-store-records.repo.js';
import { CampaignProductStoreRecordsService } from './campaign-product-store-records.service.js';
import { CampaignProductsRepo } from './campaign-products.repo.js';
import { campaignProductsRoutes } from './campaign-products.routes.js';
import { CampaignProductsService } from './campaign-products.service.js';
import { CampaignsRepo } from './campaigns.repo.js';
import { campaignsRoutes } from './campaigns.routes.js';
import { CampaignsService } from './campaigns.service.js';

export const campaignsFeature: Feature = ({ node, config, clock }) => {
  const products = new CampaignProductsService({
    repo: new CampaignProductsRepo(node.db),
    writes: node.writes,
    newId: node.newId,
    clock,
    timeZone: config.time_zone,
  });
  const storeRecords = new CampaignProductStoreRecordsService(new CampaignProductStoreRecordsRepo(node.db), products, node.writes, node.newId);
  return [
    ...campaignsRoutes(new CampaignsService(new CampaignsRepo(node.db), node.writes, node.newId, config.time_zone)),
    ...campaignProductsRoutes(products, storeRecords),
  ];
};
