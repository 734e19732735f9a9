import { formatTimestamp } from '../../core/time.js';
import type { ProductGroupRow } from './product-groups.repo.js';
import type { ProductGroupAnswer } from './product-groups.schemas.js';

export function toProductGroup(row: ProductGroupRow, timeZone: string): ProductGroupAnswer {
  return {
    product_group_id: row.id,
    name: row.name,
    parent_product_group_id: row.parent_id,
    code: row.code,
    external_id: row.external_id,
    store_id: row.store_id,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
