import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import {
  CampaignProductStoreRecordQuery,
  CreateStoreRecord,
  StoreRecordCreated,
  StoreRecordsAnswer,
} from './campaign-product-store-records.schemas.js';
import type { CampaignProductStoreRecordsService } from './campaign-product-store-records.service.js';
import {
  CampaignProductAnswer,
  CampaignProductCreated,
  CampaignProductPath,
  CampaignProductQuery,
  CampaignProductsAnswer,
  CreateCampaignProduct,
} from './campaign-products.schemas.js';
import type { CampaignProductsService } from './campaign-products.service.js';

/** interface.md: campaign products are created in the enterprise interface and read in both. */
export function campaignProductsRoutes(products: CampaignProductsService, storeRecords: CampaignProductStoreRecordsService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/campaign-products',
      interfaces: ENTERPRISE,
      status: 201,
      body: CreateCampaignProduct,
      answer: CampaignProductCreated,
      handle: ({ body }) => products.create(body),
    }),
    endpoint({
      method: 'get',
      path: '/campaign-products',
      interfaces: BOTH,
      query: CampaignProductQuery,
      answer: CampaignProductsAnswer,
      handle: ({ query }) => products.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/campaign-products/:campaign_product_id',
      interfaces: BOTH,
      params: CampaignProductPath,
      answer: CampaignProductAnswer,
      handle: ({ params }) => products.get(params.campaign_product_id),
    }),
    endpoint({
      method: 'post',
      path: '/campaign-products/:campaign_product_id/campaign-product-store-records',
      interfaces: ENTERPRISE,
      status: 201,
      params: CampaignProductPath,
      body: CreateStoreRecord,
      answer: StoreRecordCreated,
      handle: ({ params, body }) => storeRecords.create(params.campaign_product_id, body),
    }),
    endpoint({
      method: 'get',
      path: '/campaign-products/:campaign_product_id/campaign-product-store-records',
      interfaces: BOTH,
      params: CampaignProductPath,
      query: CampaignProductStoreRecordQuery,
      answer: StoreRecordsAnswer,
      handle: ({ params, query }) => storeRecords.list(params.campaign_product_id, query),
    }),
  ];
}
