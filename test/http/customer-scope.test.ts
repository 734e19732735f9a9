/**
 * The customer interface's rule (DESIGN §4) on every per-customer collection: a session with
 * Jana logged in lists exactly the records the enterprise interface lists for Jana, under the
 * common collection rules, and naming another customer — in the customer_id filter, in the
 * path, or by one of that customer's record ids — answers 400 not_belong_to_logged_in_customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { createCard, invalidParam, janaSession } from '../support/customers-fixtures.js';
import { listChecks } from '../support/list-checks.js';
import { insertOrder } from '../support/reservations-fixtures.js';
import { call, demoPosLogin, startTestServer, type JsonResponse, type TestServer } from '../support/server.js';
import { insertVoucher } from '../support/vouchers-fixtures.js';

const { customerJana: JANA, customerPetr: PETR } = DEMO_IDS;

interface PerCustomer {
  /** The collection's path; `{customer_id}` stands for the customer it lists. */
  path: string;
  plural: string;
  idField: string;
}

/** Collections filtered by a customer_id parameter, and those under /customers/{customer_id}. */
const PER_CUSTOMER: PerCustomer[] = [
  { path: '/cards', plural: 'cards', idField: 'card_id' },
  { path: '/customers/{customer_id}/cards', plural: 'cards', idField: 'card_id' },
  { path: '/vouchers', plural: 'vouchers', idField: 'voucher_id' },
  { path: '/points', plural: 'points', idField: 'point_id' },
  { path: '/purchases', plural: 'purchases', idField: 'purchase_id' },
  { path: '/product-reservations', plural: 'product_reservations', idField: 'product_reservation_id' },
  { path: '/orders', plural: 'orders', idField: 'order_id' },
  { path: '/customer-source-records', plural: 'customer_source_records', idField: 'customer_source_record_id' },
  { path: '/customers/{customer_id}/customer-source-records', plural: 'customer_source_records', idField: 'customer_source_record_id' },
  { path: '/events', plural: 'events', idField: 'event_id' },
];

/** Collections whose records are also read one by one at `<path>/{id}`. */
const WITH_RECORDS = ['/cards', '/vouchers', '/points', '/purchases', '/product-reservations', '/orders', '/events'];

let server: TestServer;
let pos: Record<string, string>;
let jana: Record<string, string>;
let serial = 0;

const enterprise = (path: string) => call('GET', `${server.api('enterprise')}${path}`, { headers: pos });
const asJana = (path: string) => call('GET', `${server.api('customer')}${path}`, { headers: jana });
const ofCustomer = (path: string, customerId: string) => path.replace('{customer_id}', customerId);
const idsOf = (response: JsonResponse, { plural, idField }: PerCustomer): string[] => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data[plural] as Record<string, unknown>[]).map((item) => String(item[idField])).sort();
};

async function post(path: string, body: unknown, headers = pos, iface: 'enterprise' | 'customer' = 'enterprise'): Promise<void> {
  const response = await call('POST', `${server.api(iface)}${path}`, { headers, body });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
}

/** A record of each per-customer kind for the customer, beside what the demo chain holds. */
async function giveRecords(customerId: string): Promise<void> {
  serial += 1;
  await createCard(server, pos, { customer_id: customerId, card_number: `6000000000${serial}` });
  insertVoucher(server, customerId, `SCOPE-${serial}`);
  await post('/points/actions/assign-points', { amount: 5, customer_id: customerId });
  await post('/product-reservations', {
    product_reservation: {
      customer_id: customerId,
      store_id: DEMO_IDS.storeCentral,
      product_reservation_source_id: `de${(0xa01).toString(16).padStart(24, '0')}`,
      product_reservation_items: [{ reservable_product_id: 'croissant', amount: 1 }],
    },
  });
  insertOrder(server, customerId);
  await post(`/customers/${customerId}/customer-source-records`, {
    customer_source_record: { customer_source_id: `scope-${serial}`, external_id: `S-${serial}` },
  });
  await post('/events', { event: { event_type_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaa', customer_id: customerId, external_id: `scope-${serial}` } });
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = (await janaSession(server)).headers;
  // Jana ends with at least two records of each kind, Petr with at least one.
  for (const customerId of [JANA, JANA, PETR]) await giveRecords(customerId);
});
afterAll(() => server.close());

for (const collection of PER_CUSTOMER) {
  const own = ofCustomer(collection.path, JANA);
  describe(`GET ${collection.path} in the customer interface, Jana logged in`, () => {
    it('lists exactly the records the enterprise interface lists for Jana, fewer than all', async () => {
      const mine = idsOf(await asJana(`${own}?count=1000`), collection);
      const janas = own === collection.path ? `${own}?customer_id=${JANA}&count=1000` : `${own}?count=1000`;
      expect(mine).toEqual(idsOf(await enterprise(janas), collection));
      expect(mine.length).toBeGreaterThanOrEqual(2);
      const everyone = await enterprise(`${collection.path.replace('/customers/{customer_id}', '')}?count=1000`);
      expect(everyone.body.data.total_items).toBeGreaterThan(mine.length);
    });

    it('naming another customer answers not_belong_to_logged_in_customer', async () => {
      const other = own === collection.path ? `${own}?customer_id=${PETR}` : ofCustomer(collection.path, PETR);
      expect(invalidParam(await asJana(other))).toMatchObject({ name: 'customer_id', reason: 'not_belong_to_logged_in_customer', value: PETR });
    });

    if (WITH_RECORDS.includes(collection.path)) {
      it("reads its own record; another customer's record answers not_belong_to_logged_in_customer", async () => {
        const [mine] = idsOf(await asJana(own), collection);
        expect((await asJana(`${own}/${mine}`)).body.data[collection.idField]).toBe(mine);
        const [petrs] = idsOf(await enterprise(`${own}?customer_id=${PETR}`), collection);
        expect(invalidParam(await asJana(`${own}/${petrs}`))).toMatchObject({ reason: 'not_belong_to_logged_in_customer', value: petrs });
      });
    }
  });

  listChecks(`GET ${collection.path} (customer, Jana logged in)`, () => ({
    url: `${server.api('customer')}${own}`,
    headers: jana,
    plural: collection.plural,
    idField: collection.idField,
  }));
}

describe('lists under another customer’s record in the customer interface', () => {
  it.each([
    ['/purchases/{id}/purchase-items', '/purchases', 'purchases', 'purchase_id'],
    ['/purchases/{id}/points', '/purchases', 'purchases', 'purchase_id'],
    ['/purchases/{id}/vouchers', '/purchases', 'purchases', 'purchase_id'],
    ['/purchases/{id}/actions/payment-summary', '/purchases', 'purchases', 'purchase_id'],
    ['/points/{id}/purchases', '/points', 'points', 'point_id'],
    ['/events/{id}/property-records', '/events', 'events', 'event_id'],
  ])('GET %s answers not_belong_to_logged_in_customer for Petr’s record and 200 for Jana’s', async (path, parent, plural, idField) => {
    const first = async (customerId: string) => idsOf(await enterprise(`${parent}?customer_id=${customerId}`), { path: parent, plural, idField })[0]!;
    const petrs = await first(PETR);
    expect(invalidParam(await asJana(path.replace('{id}', petrs)))).toMatchObject({ reason: 'not_belong_to_logged_in_customer', value: petrs });
    expect((await asJana(path.replace('{id}', await first(JANA)))).status).toBe(200);
  });
});

describe('the wallet overviews in the customer interface default to the logged-in customer', () => {
  const OVERVIEWS = ['points-overview', 'credits-overview', 'points-expiration-overview', 'credits-expiration-overview'];

  it.each(OVERVIEWS)('%s without customer_id answers Jana’s overview; the enterprise interface still requires customer_id', async (action) => {
    const path = `/wallet/actions/${action}`;
    const mine = await asJana(path);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body).toEqual((await enterprise(`${path}?customer_id=${JANA}`)).body);
    expect(invalidParam(await asJana(`${path}?customer_id=${PETR}`))).toMatchObject({ reason: 'not_belong_to_logged_in_customer', value: PETR });
    expect(invalidParam(await enterprise(path))).toMatchObject({ name: 'customer_id', reason: 'required' });
  });

  it('the points overview Jana reads shows the points she holds', async () => {
    const overview = await asJana('/wallet/actions/points-overview');
    expect(overview.body.data.available_points).toBeGreaterThan(0);
  });
});
