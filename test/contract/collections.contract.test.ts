/**
 * Contract of every collection and record read of issue 3: each answer, in each interface
 * that serves it, validated against the response schema of the same operation in
 * spec/carecloud-openapi-2021.yaml. Records are read by the id the collection returned, so
 * a row cannot pass over an empty collection. Where interface.md deliberately differs, the
 * row says so. Writes are in writes.contract.test.ts, with the audit of every operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import type { Interface } from '../../src/http/interfaces.js';
import {
  insertProductBrand,
  insertProductGroup,
  insertPurchaseItemType,
  insertStoreGroup,
  insertStoreGroupRecord,
} from '../support/catalog-fixtures.js';
import { insertEventGroup, insertEventProperty } from '../support/events-fixtures.js';
import { CURRENT_SPEC, OpenApiContract } from '../support/openapi.js';
import { demoCustomerSession, insertOrder, insertReservationSource } from '../support/reservations-fixtures.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

const NULLS = 'empty fields are null (interface.md "Nullable fields are returned as null when empty")';
/** For reads the 2021 file lacks and DESIGN §2.3 takes from the current spec. */
const CURRENT = new OpenApiContract(CURRENT_SPEC);

interface Collection {
  /** The collection path as the 2021 spec names it. */
  specPath: string;
  /** The plural key of the collection in data. */
  plural: string;
  /** The record read of the same resource, and the item field holding its id. */
  record?: { specPath: string; idField: string };
  interfaces: Interface[];
  differs?: string;
  /** A further deliberate difference, undone on each item before the check; its comment names it. */
  adapt?(item: any): unknown;
  /** The spec checked against when the 2021 file lacks the operation; the title names it. */
  spec?: OpenApiContract;
}

const BOTH: Interface[] = ['enterprise', 'customer'];

const COLLECTIONS: Collection[] = [
  {
    specPath: '/customers',
    plural: 'customers',
    record: { specPath: '/customers/{customer_id}', idField: 'customer_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  { specPath: '/cards', plural: 'cards', record: { specPath: '/cards/{card_id}', idField: 'card_id' }, interfaces: BOTH, differs: NULLS },
  { specPath: '/stores', plural: 'stores', record: { specPath: '/stores/{store_id}', idField: 'store_id' }, interfaces: BOTH, differs: NULLS },
  {
    specPath: '/products',
    plural: 'products',
    record: { specPath: '/products/{product_id}', idField: 'product_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/product-groups',
    plural: 'product_groups',
    record: { specPath: '/product-groups/{product_group_id}', idField: 'product_group_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/product-brands',
    plural: 'product_brands',
    record: { specPath: '/product-brands/{product_brand_id}', idField: 'product_brand_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  // interface.md: a campaign's id is returned as idcampaign, as the 2021 sample does.
  {
    specPath: '/campaigns',
    plural: 'campaigns',
    record: { specPath: '/campaigns/{campaign_id}', idField: 'idcampaign' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/campaign-products',
    plural: 'campaign_products',
    record: { specPath: '/campaign-products/{campaign_product_id}', idField: 'campaign_product_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/vouchers',
    plural: 'vouchers',
    record: { specPath: '/vouchers/{voucher_id}', idField: 'voucher_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  { specPath: '/points', plural: 'points', record: { specPath: '/points/{point_id}', idField: 'point_id' }, interfaces: BOTH, differs: NULLS },
  {
    specPath: '/purchases',
    plural: 'purchases',
    record: { specPath: '/purchases/{purchase_id}', idField: 'purchase_id' },
    interfaces: BOTH,
    differs: NULLS,
    // interface.md: cashdesk_number is an integer; the 2021 schema types it as a string.
    adapt: (purchase) => ({ ...purchase, cashdesk_number: purchase.cashdesk_number === null ? null : String(purchase.cashdesk_number) }),
  },
  {
    specPath: '/product-reservations',
    plural: 'product_reservations',
    record: { specPath: '/product-reservations/{product_reservation_id}', idField: 'product_reservation_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/product-reservation-sources',
    plural: 'product_reservation_sources',
    record: { specPath: '/product-reservation-sources/{product_reservation_source_id}', idField: 'product_reservation_source_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/customer-external-applications',
    plural: 'customer_external_applications',
    record: { specPath: '/customer-external-applications/{customer_external_application_id}', idField: 'external_application_id' },
    interfaces: ['enterprise'],
  },
  {
    specPath: '/rewards',
    plural: 'rewards',
    record: { specPath: '/rewards/{reward_id}', idField: 'reward_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  { specPath: '/purchase-item-types', plural: 'purchase_item_types', interfaces: BOTH, differs: NULLS },
  { specPath: '/customer-source-records', plural: 'customer_source_records', interfaces: BOTH, differs: NULLS },
  { specPath: '/events', plural: 'events', record: { specPath: '/events/{event_id}', idField: 'event_id' }, interfaces: BOTH, differs: NULLS },
  {
    specPath: '/event-properties',
    plural: 'event_properties',
    record: { specPath: '/event-properties/{event_property_id}', idField: 'property_id' },
    interfaces: BOTH,
    differs: NULLS,
    // interface.md: is_required and is_unique are integers 0 or 1; the 2021 schema types them as booleans.
    adapt: (property) => ({ ...property, is_required: property.is_required === 1, is_unique: property.is_unique === 1 }),
  },
  {
    specPath: '/event-groups',
    plural: 'event_groups',
    record: { specPath: '/event-groups/{event_group_id}', idField: 'event_group_id' },
    interfaces: BOTH,
    differs: NULLS,
  },
  {
    specPath: '/orders',
    plural: 'orders',
    record: { specPath: '/orders/{order_id}', idField: 'order_id' },
    interfaces: BOTH,
    differs: NULLS,
    spec: CURRENT,
  },
];

/** Reads under a record (its collections and the payment summary): the parent collection gives the id. */
const SUB_COLLECTIONS: { specPath: string; parent: string; idField: string; interfaces: Interface[]; differs?: string }[] = [
  { specPath: '/customers/{customer_id}/cards', parent: '/customers', idField: 'customer_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/customers/{customer_id}/customer-source-records', parent: '/customers', idField: 'customer_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/stores/{store_id}/property-records', parent: '/stores', idField: 'store_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/stores/{store_id}/store-group-records', parent: '/stores', idField: 'store_id', interfaces: BOTH, differs: NULLS },
  {
    specPath: '/campaign-products/{campaign_product_id}/campaign-product-store-records',
    parent: '/campaign-products',
    idField: 'campaign_product_id',
    interfaces: BOTH,
    differs: NULLS,
  },
  { specPath: '/events/{event_id}/property-records', parent: '/events', idField: 'event_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/points/{point_id}/purchases', parent: '/points', idField: 'point_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/purchases/{purchase_id}/purchase-items', parent: '/purchases', idField: 'purchase_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/purchases/{purchase_id}/vouchers', parent: '/purchases', idField: 'purchase_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/purchases/{purchase_id}/points', parent: '/purchases', idField: 'purchase_id', interfaces: BOTH, differs: NULLS },
  { specPath: '/purchases/{purchase_id}/actions/payment-summary', parent: '/purchases', idField: 'purchase_id', interfaces: BOTH },
];

function janaReservation() {
  return {
    customer_id: DEMO_IDS.customerJana,
    store_id: DEMO_IDS.storeCentral,
    product_reservation_source_id: `de${(0xa01).toString(16).padStart(24, '0')}`,
    product_reservation_items: [{ reservable_product_id: 'croissant', amount: 2, unit_price: '1.10', vat_rate: 12 }],
  };
}

const contract = new OpenApiContract();
let server: TestServer;
const headers = {} as Record<Interface, Record<string, string>>;

beforeAll(async () => {
  server = await startTestServer();
  headers.enterprise = await demoPosLogin(server);
  headers.customer = await demoCustomerSession(server);
  seedEveryResource(server);
  await postForJana(server, headers.enterprise);
});
afterAll(() => server.close());

function seedEveryResource(s: TestServer): void {
  insertProductGroup(s, { name: 'Coffee' });
  insertProductBrand(s, 'Roastery');
  insertPurchaseItemType(s, 'Goods');
  insertStoreGroupRecord(s, DEMO_IDS.storeCentral, insertStoreGroup(s, 'Prague'));
  insertEventProperty(s, { id: 'channel', name: 'Channel' });
  insertEventGroup(s, 'Visits', 'visits');
  insertReservationSource(s, 'Web');
  insertOrder(s, DEMO_IDS.customerJana);
}

/** An event and a product reservation of Jana, the customer logged in on the customer interface. */
async function postForJana(s: TestServer, pos: Record<string, string>): Promise<void> {
  const event = await call('POST', `${s.api('enterprise')}/events`, {
    headers: pos,
    body: {
      event: { event_type_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaa', customer_id: DEMO_IDS.customerJana, external_id: 'contract-1' },
      property_records: [{ property_id: 'channel', property_value: 'app' }],
    },
  });
  expect(event.status, JSON.stringify(event.body)).toBe(201);
  const reservation = await call('POST', `${s.api('enterprise')}/product-reservations`, {
    headers: pos,
    body: { product_reservation: janaReservation() },
  });
  expect(reservation.status, JSON.stringify(reservation.body)).toBe(201);
}

const get = (iface: Interface, path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers[iface] });

async function firstId(iface: Interface, specPath: string, plural: string, idField: string): Promise<string> {
  const response = await get(iface, specPath);
  expect(response.status).toBe(200);
  const first = (response.body.data[plural] as Record<string, unknown>[])[0];
  if (!first) throw new Error(`${specPath} is empty in the ${iface} interface: nothing to read a record by`);
  return String(first[idField]);
}

/** Checks a body against the 2021 schema (or the row's spec) once the collection's deliberate differences are undone. */
function conforms(
  method: string,
  specPath: string,
  status: number,
  body: any,
  row: Pick<Collection, 'differs' | 'adapt' | 'spec'> = {},
  plural?: string,
): void {
  let adapted = body;
  if (row.adapt && status === 200) {
    adapted = plural ? { data: { ...body.data, [plural]: body.data[plural].map(row.adapt) } } : { data: row.adapt(body.data) };
  }
  expect((row.spec ?? contract).check(method, specPath, status, adapted, { nullable: row.differs === NULLS })).toEqual([]);
}

describe('collections and records conform to the 2021 OpenAPI schema of their operation', () => {
  for (const collection of COLLECTIONS) {
    const against = collection.spec ? ', the 2021 file lacks it: current spec' : '';
    for (const iface of collection.interfaces) {
      it(`GET ${collection.specPath} 200 (${iface})${against}`, async () => {
        const response = await get(iface, collection.specPath);
        expect(response.status).toBe(200);
        conforms('get', collection.specPath, 200, response.body, collection, collection.plural);
      });
      it(`GET ${collection.specPath} 400 (${iface})${against}`, async () => {
        const response = await get(iface, `${collection.specPath}?count=-1`);
        expect(response.status).toBe(400);
        conforms('get', collection.specPath, 400, response.body, { spec: collection.spec });
      });
      const record = collection.record;
      if (!record) continue;
      it(`GET ${record.specPath} 200 (${iface})${against}`, async () => {
        const id = await firstId(iface, collection.specPath, collection.plural, record.idField);
        const response = await get(iface, `${collection.specPath}/${id}`);
        expect(response.status).toBe(200);
        conforms('get', record.specPath, 200, response.body, collection);
      });
      it(`GET ${record.specPath} 404 (${iface})${against}`, async () => {
        const response = await get(iface, `${collection.specPath}/ffffffffffffffffffffffffff`);
        expect(response.status).toBe(404);
        conforms('get', record.specPath, 404, response.body, { spec: collection.spec });
      });
    }
  }
  for (const sub of SUB_COLLECTIONS) {
    for (const iface of sub.interfaces) {
      it(`GET ${sub.specPath} 200 (${iface})`, async () => {
        const parent = COLLECTIONS.find((collection) => collection.specPath === sub.parent)!;
        const id = await firstId(iface, sub.parent, parent.plural, sub.idField);
        const response = await get(iface, sub.specPath.replace(/\{[^}]+\}/, id));
        expect(response.status).toBe(200);
        conforms('get', sub.specPath, 200, response.body, sub);
      });
    }
  }
});
