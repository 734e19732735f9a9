import { SortedPaging } from '../../core/paging.js';
import { z } from 'zod';
import { Collection, Text } from '../../core/schemas.js';

/**
 * A purchase-item type as master data loads it (`loyaltyd import purchase-item-types`); the API
 * only reads them. Its id is the text a till sends as `purchase_item_type_id`, so any text.
 */
export const PurchaseItemTypeRecord = z.object({ type_id: Text.optional(), name: Text });
export type PurchaseItemTypeRecord = z.infer<typeof PurchaseItemTypeRecord>;

export const PurchaseItemTypeAnswer = z.object({ type_id: z.string(), name: z.string() });
export type PurchaseItemTypeAnswer = z.infer<typeof PurchaseItemTypeAnswer>;
export const PurchaseItemTypesAnswer = Collection('purchase_item_types', PurchaseItemTypeAnswer);

/** The fields this list sorts by: those an index keeps in order. */
export const PURCHASE_ITEM_TYPE_SORT_FIELDS = ['type_id', 'name'] as const;
export const PurchaseItemTypeQuery = SortedPaging(PURCHASE_ITEM_TYPE_SORT_FIELDS);
export type PurchaseItemTypeQuery = z.infer<typeof PurchaseItemTypeQuery>;
