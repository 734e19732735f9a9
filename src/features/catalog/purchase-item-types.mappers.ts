import type { PurchaseItemTypeAnswer, PurchaseItemTypeRow } from './purchase-item-types.schemas.js';

export function toPurchaseItemType(row: PurchaseItemTypeRow): PurchaseItemTypeAnswer {
  return { type_id: row.id, name: row.name };
}
