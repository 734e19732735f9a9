import { z } from 'zod';
import { Paging } from '../../core/paging.js';
import { QueryBoolean, Text } from '../../core/schemas.js';

const LocalTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be YYYY-MM-DD HH:MM:SS');

export const PurchasesQuery = Paging.extend({
  store_id: Text.optional(),
  customer_id: Text.optional(),
  type_id: Text.optional(),
  payment_time_from: LocalTimestamp.optional(),
  payment_time_to: LocalTimestamp.optional(),
  purchase_items_extension: QueryBoolean.default(false),
});
export type PurchasesQuery = z.infer<typeof PurchasesQuery>;

export const PurchasePath = z.object({ purchase_id: Text });

export interface PurchaseRow {
  id: string;
  customer_id: string | null;
  store_id: string;
  external_purchase_id: string;
  payment_time: string;
  type_id: string | null;
  total_price_minor: number;
  currency_id: string | null;
  card_number: string | null;
  cashdesk_number: number | null;
  items_count: number;
  last_change: string;
}

export interface PurchaseItemRow {
  id: string;
  purchase_id: string;
  product_id: string | null;
  external_id: string | null;
  purchase_item_type_id: string | null;
  price_minor: number;
  amount_milli: number | null;
  vat_rate: number | null;
  additional_properties: string;
}
