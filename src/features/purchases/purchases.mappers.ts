import { fromMilli, fromMinor } from '../../core/money.js';
import { formatTimestamp } from '../../core/time.js';
import type { PurchaseItemRow, PurchaseRow } from './purchases.repo.js';
import type { PurchaseAnswer, PurchaseItemAnswer } from './purchases.schemas.js';
import { featureColumns } from '../column-codecs.js';

export function toPurchaseItem(row: PurchaseItemRow): PurchaseItemAnswer {
  return {
    purchase_item_id: row.id,
    product_id: row.product_id,
    external_id: row.external_id,
    purchase_item_type_id: row.purchase_item_type_id,
    price: fromMinor(row.price_minor),
    amount: row.amount_milli === null ? null : fromMilli(row.amount_milli),
    vat_rate: row.vat_rate,
    additional_properties: featureColumns['purchase_items.additional_properties'](row.additional_properties),
  };
}

/** Purchase as interface.md shows it; `purchase_items` only when the list asks for them. */
export function toPurchase(row: PurchaseRow, items: PurchaseItemAnswer[] | null, timeZone: string): PurchaseAnswer {
  return {
    purchase_id: row.id,
    customer_id: row.customer_id,
    store_id: row.store_id,
    external_purchase_id: row.external_purchase_id,
    payment_time: formatTimestamp(row.payment_time, timeZone),
    items_count: row.items_count,
    purchase_items: items,
    type_id: row.type_id,
    total_price: fromMinor(row.total_price_minor),
    currency_id: row.currency_id,
    card_number: row.card_number,
    cashdesk_number: row.cashdesk_number,
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}
