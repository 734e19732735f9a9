import { formatTimestamp } from '../../core/time.js';
import type { Address, AddressAnswer } from '../address.schema.js';
import type { StoreRow } from './stores.repo.js';
import { StoreDetails, type StoreAnswer, type StoreInput } from './stores.schemas.js';
import { featureColumns } from '../column-codecs.js';

/** The Store structure of the OpenAPI file, keys in its order; empty fields are null. */
export function toStore(row: StoreRow, timeZone: string): StoreAnswer {
  const details = featureColumns['stores.details'](row.details);
  return {
    store_id: row.id,
    store_code: row.store_code,
    name: row.name,
    store_address: details.store_address ? toAddress(details.store_address) : null,
    contact_email: details.contact_email ?? null,
    manager_name: details.manager_name ?? null,
    phone_number: details.phone_number ?? null,
    partner_id: row.partner_id,
    system_id: row.system_id,
    gps_coordinates: details.gps_coordinates ?? null,
    url_address: details.url_address ?? null,
    opening: details.opening ?? [],
    image_urls: details.image_urls ?? [],
    visibility_for_customer: row.visibility_for_customer,
    short_description: details.short_description ?? null,
    description: details.description ?? null,
    registration_id: details.registration_id ?? null,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}

function toAddress(address: Address): AddressAnswer {
  return {
    address1: address.address1 ?? null,
    address2: address.address2 ?? null,
    address3: address.address3 ?? null,
    address4: address.address4 ?? null,
    address5: address.address5 ?? null,
    address6: address.address6 ?? null,
    address7: address.address7 ?? null,
    zip: address.zip ?? null,
    city: address.city ?? null,
    country_code: address.country_code ?? null,
  };
}

/** The stored details of a request, over those already stored: a field left out keeps its value. */
export function toStoreDetails(store: StoreInput, stored: StoreDetails = {}): StoreDetails {
  const given: StoreDetails = {
    store_address: store.store_address,
    contact_email: store.contact_email,
    manager_name: store.manager_name,
    phone_number: store.phone_number,
    gps_coordinates: store.gps_coordinates,
    url_address: store.url_address,
    opening: store.opening,
    image_urls: store.image_urls,
    short_description: store.short_description,
    description: store.description,
    registration_id: store.registration_id,
  };
  const kept = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...stored, ...kept };
}
