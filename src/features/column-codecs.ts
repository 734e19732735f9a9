/**
 * The JSON columns of the features' tables (src/db/column-codecs.ts). A column holding what a
 * client or an import sent, checked as it came in, is validated again on the way out where its
 * reader relied on that before; one only this code writes is typed by its codec.
 */
import { z } from 'zod';
import { parsedJson, typedJson, type ColumnCodecs } from '../db/column-codecs.js';
import type { BillLine } from '../loyalty/bill.js';
import { PresentationData } from './campaigns/campaign-products.schemas.js';
import { StoredProperty } from './catalog/products.schemas.js';
import type { CustomerAnswer } from './customers/customers.schemas.js';
import { PropertyItem } from './events/event-properties.schemas.js';
import { OrderDetails } from './orders/orders.schemas.js';
import type { PropertyRecordAnswer } from './property-record.schema.js';
import { ScoredList } from './recommendations/model-rows.schemas.js';
import { ReservationDetails } from './reservations/product-reservations.schemas.js';
import { StoreDetails } from './stores/stores.schemas.js';

/** A purchase's bill as the cash desk stored it, for the records an assignment earns later. */
export interface StoredBill {
  lines: BillLine[];
  /** The final bill's payment type; absent on bills stored before credits. */
  payment_type?: string;
}

/** A property record's value, of a store or an event: any JSON the property's data type allows. */
export const propertyValue = typedJson<PropertyRecordAnswer['property_value']>();

const scoredList = parsedJson(ScoredList);

export const featureColumns = {
  /** The address keys a customer was given; a key never given is absent. */
  'customers.address': typedJson<Record<string, string | null | undefined>>(),
  /** The agreements a customer was given; one never given is absent. */
  'customers.agreement': typedJson<Partial<CustomerAnswer['personal_information']['agreement']>>(),
  'stores.details': parsedJson(StoreDetails),
  'store_property_records.property_value': propertyValue,
  'event_property_records.property_value': propertyValue,
  'event_properties.items': parsedJson(z.array(PropertyItem)),
  'products.additional_properties': parsedJson(z.array(StoredProperty)),
  'purchases.bill': typedJson<StoredBill>(),
  'purchase_items.additional_properties': typedJson<unknown[]>(),
  'orders.details': parsedJson(OrderDetails),
  'product_reservations.details': parsedJson(ReservationDetails),
  'campaign_products.presentation_data': parsedJson(PresentationData.partial()),
  'campaign_products.display_in': parsedJson(z.array(z.string())),
  'recommendation_neighbours.neighbours': scoredList,
  'recommendation_customers.affinities': scoredList,
  'recommendation_best_sellers.products': scoredList,
} satisfies ColumnCodecs;
