import { fromMinor } from '../../core/money.js';
import { formatOptionalTimestamp, formatTimestamp } from '../../core/time.js';
import type { CampaignProductRow } from './campaign-products.repo.js';
import type { CampaignProductAnswer } from './campaign-products.schemas.js';
import { featureColumns } from '../column-codecs.js';

/**
 * The CampaignProduct structure of the OpenAPI file, keys in its order. interface.md lets
 * only subtitle and note of the presentation data be null; the other texts are strings.
 */
export function toCampaignProduct(row: CampaignProductRow, timeZone: string): CampaignProductAnswer {
  const presentation = featureColumns['campaign_products.presentation_data'](row.presentation_data);
  return {
    campaign_product_id: row.id,
    product_id: row.product_id,
    currency_id: row.currency_id,
    campaign_id: row.campaign_id,
    value: fromMinor(row.value_minor),
    value_type_id: row.value_type_id,
    valid_from: formatOptionalTimestamp(row.valid_from, timeZone),
    valid_to: formatOptionalTimestamp(row.valid_to, timeZone),
    display_in: featureColumns['campaign_products.display_in'](row.display_in),
    type_id: row.type_id,
    presentation_data: {
      name: presentation.name ?? null,
      subtitle: presentation.subtitle ?? null,
      note: presentation.note ?? null,
      description: presentation.description ?? '',
      image_url: presentation.image_url ?? '',
    },
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
