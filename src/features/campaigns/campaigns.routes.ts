import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { CampaignAnswer, CampaignCreated, CampaignPath, CampaignQuery, CampaignsAnswer, CreateCampaign } from './campaigns.schemas.js';
import type { CampaignsService } from './campaigns.service.js';

/** Campaigns are hub master data: any client reads them, only the enterprise interface creates them. */
export function campaignsRoutes(campaigns: CampaignsService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/campaigns',
      interfaces: ENTERPRISE,
      status: 201,
      body: CreateCampaign,
      answer: CampaignCreated,
      handle: ({ body }) => campaigns.create(body),
    }),
    endpoint({
      method: 'get',
      path: '/campaigns',
      interfaces: BOTH,
      query: CampaignQuery,
      answer: CampaignsAnswer,
      handle: ({ query }) => campaigns.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/campaigns/:campaign_id',
      interfaces: BOTH,
      params: CampaignPath,
      answer: CampaignAnswer,
      handle: ({ params }) => campaigns.get(params.campaign_id),
    }),
  ];
}
