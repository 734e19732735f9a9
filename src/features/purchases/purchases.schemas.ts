import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, QueryBoolean, StoreTimestamp, Text } from '../../core/schemas.js';
import { PointAnswer } from '../points/points.schemas.js';
import { VoucherAnswer } from '../vouchers/vouchers.schemas.js';

const LocalTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be YYYY-MM-DD HH:MM:SS');

/** The fields this list sorts by: those an index keeps in order. */
export const PURCHASE_SORT_FIELDS = ['purchase_id', 'payment_time'] as const;
export const PurchasesQuery = SortedPaging(PURCHASE_SORT_FIELDS).extend({
  store_id: Text.optional(),
  customer_id: Text.optional(),
  type_id: Text.optional(),
  payment_time_from: LocalTimestamp.optional(),
  payment_time_to: LocalTimestamp.optional(),
  purchase_items_extension: QueryBoolean.default(false),
});
export type PurchasesQuery = z.infer<typeof PurchasesQuery>;

export const PurchasePath = z.object({ purchase_id: Text });

export const PurchaseItemAnswer = z.object({
  purchase_item_id: z.string(),
  product_id: z.string().nullable(),
  external_id: z.string().nullable(),
  purchase_item_type_id: z.string().nullable(),
  price: z.number(),
  amount: z.number().nullable(),
  vat_rate: z.number().nullable(),
  additional_properties: z.array(z.unknown()),
});
export type PurchaseItemAnswer = z.infer<typeof PurchaseItemAnswer>;
export const PurchaseItemsAnswer = Collection('purchase_items', PurchaseItemAnswer);

/** Purchase as interface.md shows it; `purchase_items` only when the list asks for them. */
export const PurchaseAnswer = z.object({
  purchase_id: z.string(),
  customer_id: z.string().nullable(),
  store_id: z.string(),
  external_purchase_id: z.string(),
  payment_time: StoreTimestamp,
  items_count: z.number().int(),
  purchase_items: z.array(PurchaseItemAnswer).nullable(),
  type_id: z.string().nullable(),
  total_price: z.number(),
  currency_id: z.string().nullable(),
  card_number: z.string().nullable(),
  cashdesk_number: z.number().int().nullable(),
  last_change: StoreTimestamp,
});
export type PurchaseAnswer = z.infer<typeof PurchaseAnswer>;
export const PurchasesAnswer = Collection('purchases', PurchaseAnswer);

export const PurchasePointsAnswer = Collection('points', PointAnswer);
export const PurchaseVouchersAnswer = Collection('vouchers', VoucherAnswer);

/** What a purchase earned and spent, from the facts linked to it. */
export const PaymentSummaryAnswer = z.object({
  earned_points: z.number(),
  used_credits: z.number(),
  used_points: z.number(),
  used_points_total: z.number(),
  used_vouchers: z.array(VoucherAnswer),
});
export type PaymentSummaryAnswer = z.infer<typeof PaymentSummaryAnswer>;
