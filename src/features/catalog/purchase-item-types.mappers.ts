import type { PurchaseItemTypeRow } from './purchase-item-types.repo.js';
import type { PurchaseItemTypeAnswer } from './purchase-item-types.schemas.js';

export function toPurchaseItemType(row: PurchaseItemTypeRow): PurchaseItemTypeAnswer {
  return { type_id: row.id, name: row.name };
}
