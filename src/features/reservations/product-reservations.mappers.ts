import { fromMinor } from '../../core/money.js';
import { formatTimestamp } from '../../core/time.js';
import type { ProductReservationRow } from './product-reservations.repo.js';
import { ReservationDetails, type NewProductReservation, type ProductReservationAnswer } from './product-reservations.schemas.js';
import { foldReservationStates, type StateFact } from './reservation-states.js';
import { featureColumns } from '../column-codecs.js';

/** The ProductReservation structure of interface.md, keys in the OpenAPI order. */
export function toProductReservation(row: ProductReservationRow, codes: number[], facts: StateFact[], timeZone: string): ProductReservationAnswer {
  const details = featureColumns['product_reservations.details'](row.details);
  const { actual_state, states } = foldReservationStates(facts);
  return {
    product_reservation_id: row.id,
    customer_id: row.customer_id,
    store_id: row.store_id,
    reservation_codes: codes,
    external_reservation_codes: details.external_reservation_codes,
    benefit_codes: details.benefit_codes,
    product_reservation_source_id: row.product_reservation_source_id,
    pickup_date: row.pickup_date,
    customers_note: details.customers_note,
    total_price: row.total_price_minor === null ? null : fromMinor(row.total_price_minor),
    currency_id: row.currency_id,
    product_reservation_items: details.product_reservation_items.map((item) => ({
      reservable_product_id: item.reservable_product_id,
      amount: item.amount,
      unit_price: item.unit_price_minor === null ? null : fromMinor(item.unit_price_minor),
      vat_rate: item.vat_rate,
    })),
    external_purchase_id: details.external_purchase_id,
    utm: details.utm,
    actual_state,
    states,
    // No operation of the interface adds comments to a reservation.
    comments: [],
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}

/** The `details` column of a new reservation. */
export function toReservationDetails(request: NewProductReservation): ReservationDetails {
  return {
    external_reservation_codes: request.external_reservation_codes ?? [],
    benefit_codes: request.benefit_codes ?? [],
    customers_note: request.customers_note ?? null,
    product_reservation_items: (request.product_reservation_items ?? []).map((item) => ({
      reservable_product_id: item.reservable_product_id,
      amount: item.amount,
      unit_price_minor: item.unit_price ?? null,
      vat_rate: item.vat_rate ?? null,
    })),
    external_purchase_id: request.external_purchase_id ?? null,
    utm: request.utm ?? null,
  };
}
