import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, Text, StoreTimestamp } from '../../core/schemas.js';

/** Ids of other systems arrive as strings or, in the OpenAPI examples, as numbers. */
const ExternalId = z.union([Text, z.number().transform(String)]);

export const CreateCampaign = z.object({
  campaign: z.object({ name: Text, parent_id: Text.nullable().optional(), external_id: ExternalId.nullable().optional() }),
});
export type CreateCampaign = z.infer<typeof CreateCampaign>;

/** A campaign of an import file (`loyaltyd import campaigns`): the API's structure, with the id it may already have. */
export const ImportedCampaign = CreateCampaign.extend({ campaign_id: Id.optional() });
export type ImportedCampaign = z.infer<typeof ImportedCampaign>;

export const CampaignPath = z.object({ campaign_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const CAMPAIGN_SORT_FIELDS = ['idcampaign', 'name'] as const;
export const CampaignQuery = SortedPaging(CAMPAIGN_SORT_FIELDS).extend({ name: Text.optional() });
export type CampaignQuery = z.infer<typeof CampaignQuery>;

/** The Campaign structure as interface.md gives it for reads: the id is `idcampaign`. */
export const CampaignAnswer = z.object({
  idcampaign: z.string(),
  name: z.string(),
  last_change: StoreTimestamp,
  parent_id: z.string().nullable(),
  external_id: z.string().nullable(),
  state: z.number().int(),
});
export type CampaignAnswer = z.infer<typeof CampaignAnswer>;
export const CampaignsAnswer = Collection('campaigns', CampaignAnswer);
export const CampaignCreated = z.object({ campaign_id: z.string() });
