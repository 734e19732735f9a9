import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, QueryArray, QueryBoolean, QueryInteger, Text, StoreTimestamp } from '../../core/schemas.js';
import { Money } from '../../core/money.js';

/**
 * A place of display. interface.md filters by `web`, `cash desk`, `api` and creates with
 * tokens such as `cash_desk`; both spellings are accepted and `cash desk` is stored.
 */
export const DisplayPlace = z.enum(['web', 'cash desk', 'cash_desk', 'api']).transform((place) => (place === 'cash_desk' ? 'cash desk' : place));

const ValueType = z.number().int().min(1).max(2);

export const PresentationData = z.object({
  name: Text,
  subtitle: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  image_url: z.string().nullable().optional(),
});
export type PresentationData = z.infer<typeof PresentationData>;

export const CreateCampaignProduct = z.object({
  campaign_product: z.object({
    product_id: Text,
    currency_id: Text,
    campaign_id: Text,
    value: Money,
    value_type_id: ValueType,
    valid_from: Text,
    valid_to: Text,
    display_in: z.array(DisplayPlace).max(4).optional(),
    type_id: Text,
    presentation_data: PresentationData,
  }),
});
export type CreateCampaignProduct = z.infer<typeof CreateCampaignProduct>;

export const CampaignProductPath = z.object({ campaign_product_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const CAMPAIGN_PRODUCT_SORT_FIELDS = ['campaign_product_id', 'product_id', 'value_type_id', 'valid_from', 'valid_to', 'type_id'] as const;
export const CampaignProductQuery = SortedPaging(CAMPAIGN_PRODUCT_SORT_FIELDS).extend({
  name: Text.optional(),
  code: Text.optional(),
  display_in: DisplayPlace.optional(),
  type_id: QueryArray.pipe(z.array(z.string()).max(1000)).optional(),
  store_id: Text.optional(),
  value_type_id: QueryInteger.pipe(ValueType).optional(),
  is_valid: QueryBoolean.optional(),
  valid_from: Text.optional(),
  valid_to: Text.optional(),
});
export type CampaignProductQuery = z.infer<typeof CampaignProductQuery>;

/**
 * The CampaignProduct structure of the OpenAPI file as the API answers it, keys in its order.
 * interface.md lets only subtitle and note of the presentation data be null.
 */
export const CampaignProductAnswer = z.object({
  campaign_product_id: z.string(),
  product_id: z.string(),
  currency_id: z.string().nullable(),
  campaign_id: z.string().nullable(),
  value: z.number(),
  value_type_id: z.number().int(),
  valid_from: StoreTimestamp.nullable(),
  valid_to: StoreTimestamp.nullable(),
  display_in: z.array(z.string()),
  type_id: z.string().nullable(),
  presentation_data: z.object({
    name: z.string().nullable(),
    subtitle: z.string().nullable(),
    note: z.string().nullable(),
    description: z.string(),
    image_url: z.string(),
  }),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type CampaignProductAnswer = z.infer<typeof CampaignProductAnswer>;
export const CampaignProductsAnswer = Collection('campaign_products', CampaignProductAnswer);
export const CampaignProductCreated = z.object({ campaign_product_id: z.string() });
