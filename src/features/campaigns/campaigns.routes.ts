import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { CampaignPath, CampaignQuery, CreateCampaign } from './campaigns.schemas.js';
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
      handle: ({ body }) => campaigns.create(body),
    }),
    endpoint({
      method: 'get',
      path: '/campaigns',
      interfaces: BOTH,
      query: CampaignQuery,
      handle: ({ query }) => campaigns.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/campaigns/:campaign_id',
      interfaces: BOTH,
      params: CampaignPath,
      handle: ({ params }) => campaigns.get(params.campaign_id),
    }),
  ];
}
