import { formatTimestamp } from '../../core/time.js';
import type { ProductRow } from './products.repo.js';
import { featureColumns } from '../column-codecs.js';
import type { ProductAnswer } from './products.schemas.js';

/** The Product structure of the OpenAPI file, with the external id of the list asked for. */
export function toProduct(row: ProductRow, externalId: string | null, timeZone: string): ProductAnswer {
  return {
    product_id: row.id,
    name: row.name,
    code: row.code,
    external_id: externalId,
    product_group_id: row.product_group_id,
    product_brand_id: row.product_brand_id,
    additional_properties: featureColumns['products.additional_properties'](row.additional_properties).map((property) => ({
      property_record_id: `${property.property_id}:${row.id}`,
      property_id: property.property_id,
      property_name: property.property_name,
      property_value: property.property_value,
      last_change: property.last_change ? formatTimestamp(property.last_change, timeZone, true) : null,
    })),
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
