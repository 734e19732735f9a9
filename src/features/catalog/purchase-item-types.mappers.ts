import type { PurchaseItemTypeRow } from './purchase-item-types.schemas.js';

export function toPurchaseItemType(row: PurchaseItemTypeRow) {
  return { type_id: row.id, name: row.name };
}
