import { fromMinor } from '../../core/money.js';
import { formatOptionalTimestamp, formatTimestamp } from '../../core/time.js';
import type { OrderRow } from './orders.repo.js';
import type { OrderAnswer } from './orders.schemas.js';
import { featureColumns } from '../column-codecs.js';

/** The Order structure of the OpenAPI file, keys in its order. */
export function toOrder(row: OrderRow, timeZone: string): OrderAnswer {
  const details = featureColumns['orders.details'](row.details);
  return {
    order_id: row.id,
    order_number: row.order_number,
    customer_id: row.customer_id,
    currency_id: row.currency_id,
    total_price: fromMinor(row.total_price_minor),
    discount_codes: details.discount_codes,
    order_items: details.order_items.map((item) => ({
      order_item_id: item.order_item_id,
      product_variant_id: item.product_variant_id,
      customer_id: item.customer_id,
      amount: item.amount,
      unit_price: fromMinor(item.unit_price_minor),
      vat_rate: item.vat_rate,
    })),
    invoicing_data: {
      payment_id: details.invoicing_data.payment_id,
      paid_date: formatOptionalTimestamp(details.invoicing_data.paid_at, timeZone),
      personal_information: details.invoicing_data.personal_information,
    },
    shipping_data: details.shipping_data,
    customer_note: details.customer_note,
    last_change: formatTimestamp(row.last_change, timeZone, true),
  };
}
