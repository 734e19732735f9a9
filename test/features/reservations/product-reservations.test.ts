import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { demoCustomerSession, insertReservationSource, insertReservationStateChange } from '../../support/reservations-fixtures.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

/** The demo chain's reservation source (src/demo/demo.ts). */
const ESHOP_SOURCE = `de${(0xa01).toString(16).padStart(24, '0')}`;

let server: TestServer;
let pos: Record<string, string>;
let jana: Record<string, string>;
let enterprise: string;
let customer: string;
let otherSource: string;

function reservation(overrides: Record<string, unknown> = {}) {
  return {
    customer_id: DEMO_IDS.customerPetr,
    store_id: DEMO_IDS.storeCentral,
    product_reservation_source_id: ESHOP_SOURCE,
    product_reservation_items: [{ reservable_product_id: 'croissant', amount: 2, unit_price: '1.10', vat_rate: 12 }],
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}, headers = pos, base = enterprise): Promise<string> {
  const response = await call('POST', `${base}/product-reservations`, { headers, body: { product_reservation: reservation(overrides) } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.product_reservation_id as string;
}

async function list(query: string, headers = pos, base = enterprise) {
  return call('GET', `${base}/product-reservations?${query}`, { headers });
}

async function cancel(id: string, headers = pos, base = enterprise, bodyId = id) {
  return call('POST', `${base}/product-reservations/${id}/actions/cancel-reservation`, { headers, body: { product_reservation_id: bodyId } });
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = await demoCustomerSession(server);
  enterprise = server.api('enterprise');
  customer = server.api('customer');
  otherSource = insertReservationSource(server, 'Call centre');
});
afterAll(() => server.close());

describe('POST /product-reservations', () => {
  it('creates a reservation that starts Entered and reads back as sent', async () => {
    const id = await create({
      reservation_codes: [4711, '4712'],
      external_reservation_codes: [{ external_code_type_id: 1, value: 'ESHOP-77' }],
      benefit_codes: ['CAPPU-2026'],
      pickup_date: '2026-05-04',
      customers_note: 'Please keep them warm',
      total_price: '2.20',
      currency_id: 'CZK',
      external_purchase_id: 'B-1',
      utm: { utm_source: 'newsletter' },
    });
    expect(id).toMatch(/^[0-9a-f]{26}$/);
    const response = await call('GET', `${enterprise}/product-reservations/${id}`, { headers: pos });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      product_reservation_id: id,
      customer_id: DEMO_IDS.customerPetr,
      store_id: DEMO_IDS.storeCentral,
      reservation_codes: [4711, 4712],
      external_reservation_codes: [{ external_code_type_id: 1, value: 'ESHOP-77' }],
      benefit_codes: ['CAPPU-2026'],
      product_reservation_source_id: ESHOP_SOURCE,
      pickup_date: '2026-05-04',
      customers_note: 'Please keep them warm',
      total_price: 2.2,
      currency_id: 'CZK',
      product_reservation_items: [{ reservable_product_id: 'croissant', amount: 2, unit_price: 1.1, vat_rate: 12 }],
      external_purchase_id: 'B-1',
      utm: { utm_source: 'newsletter' },
      actual_state: 1,
      states: ['1'],
      comments: [],
      state: 1,
    });
    expect(response.body.data.last_change).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it('queues one command carrying a change per record (reservation, each code, the Entered fact)', async () => {
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    await create({ reservation_codes: [9001, 9002] });
    expect(queuedChangesSince(server, seq)).toEqual({ product_reservations: 1, reservation_codes: 2, reservation_state_changes: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['product_reservations.create']);
  });

  it('names every referenced id that does not exist with not_found', async () => {
    const missing = 'ffffffffffffffffffffffffff';
    const response = await call('POST', `${enterprise}/product-reservations`, {
      headers: pos,
      body: { product_reservation: reservation({ customer_id: missing, store_id: missing, product_reservation_source_id: missing }) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params.map((p: any) => [p.name, p.reason])).toEqual([
      ['product_reservation.customer_id', 'not_found'],
      ['product_reservation.store_id', 'not_found'],
      ['product_reservation.product_reservation_source_id', 'not_found'],
    ]);
  });

  it('requires reservation codes or reservation items', async () => {
    const response = await call('POST', `${enterprise}/product-reservations`, {
      headers: pos,
      body: { product_reservation: reservation({ product_reservation_items: [] }) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'product_reservation.product_reservation_items',
      reason: 'required',
    });
  });

  it('requires currency_id with total_price', async () => {
    const response = await call('POST', `${enterprise}/product-reservations`, {
      headers: pos,
      body: { product_reservation: reservation({ total_price: 10 }) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'product_reservation.currency_id', reason: 'required' });
  });

  it('answers required when the product_reservation structure is missing', async () => {
    const response = await call('POST', `${enterprise}/product-reservations`, { headers: pos, body: {} });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'product_reservation', reason: 'required' });
  });

  it('lets a logged-in customer reserve for itself only', async () => {
    const own = await create({ customer_id: DEMO_IDS.customerJana }, jana, customer);
    expect(own).toMatch(/^[0-9a-f]{26}$/);
    const response = await call('POST', `${customer}/product-reservations`, {
      headers: jana,
      body: { product_reservation: reservation({ customer_id: DEMO_IDS.customerPetr }) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'product_reservation.customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
  });
});

describe('GET /product-reservations', () => {
  let eva: string[];

  beforeAll(async () => {
    eva = [];
    for (let index = 0; index < 5; index += 1) {
      eva.push(
        await create({
          customer_id: DEMO_IDS.customerEva,
          store_id: index < 2 ? DEMO_IDS.storeAirport : DEMO_IDS.storeCentral,
          product_reservation_source_id: index === 0 ? otherSource : ESHOP_SOURCE,
          reservation_codes: [7000 + index],
          total_price: 10 + index,
          currency_id: 'CZK',
        }),
      );
    }
    expect((await cancel(eva[4]!)).status).toBe(204);
  });

  it('lists in the data envelope and counts every match in total_items, beyond one page', async () => {
    const response = await list(`customer_id=${DEMO_IDS.customerEva}&count=2`);
    expect(response.status).toBe(200);
    expect(response.body.data.product_reservations).toHaveLength(2);
    expect(response.body.data.total_items).toBe(5);
  });

  it('filters by reservation_code, customer_id, store_id and reservation_state', async () => {
    const byCode = await list('reservation_code=7003');
    expect(byCode.body.data.product_reservations.map((r: any) => r.product_reservation_id)).toEqual([eva[3]]);
    expect(byCode.body.data.total_items).toBe(1);

    const byStore = await list(`customer_id=${DEMO_IDS.customerEva}&store_id=${DEMO_IDS.storeAirport}`);
    expect(byStore.body.data.product_reservations.map((r: any) => r.product_reservation_id)).toEqual([eva[0], eva[1]]);

    const canceled = await list(`customer_id=${DEMO_IDS.customerEva}&reservation_state=0`);
    expect(canceled.body.data.product_reservations.map((r: any) => r.product_reservation_id)).toEqual([eva[4]]);
    const entered = await list(`customer_id=${DEMO_IDS.customerEva}&reservation_state=1`);
    expect(entered.body.data.total_items).toBe(4);
    const accepted = await list(`customer_id=${DEMO_IDS.customerEva}&reservation_state=2`);
    expect(accepted.body.data).toEqual({ product_reservations: [], total_items: 0 });

    const everyone = await list('count=1000');
    expect(everyone.body.data.total_items).toBeGreaterThan(5);
    expect(new Set(everyone.body.data.product_reservations.map((r: any) => r.customer_id)).size).toBeGreaterThan(1);
  });

  it('sorts by an indexed field in both directions; total_price, which no index orders, answers 400 not_allowed_value', async () => {
    const ids = async (direction: string) =>
      (await list(`sort_field=store_id&sort_direction=${direction}&count=1000`)).body.data.product_reservations.map(
        (r: any) => r.product_reservation_id,
      );
    const ascending = await ids('ASC');
    expect(ascending.length).toBeGreaterThan(5);
    expect(await ids('DESC')).toEqual([...ascending].reverse());
    const refused = await list(`customer_id=${DEMO_IDS.customerEva}&sort_field=total_price`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
  });

  it('pages with offset and answers [] with the total past the end', async () => {
    const second = await list(`customer_id=${DEMO_IDS.customerEva}&count=2&offset=2`);
    expect(second.body.data.product_reservations.map((r: any) => r.product_reservation_id)).toEqual([eva[2], eva[3]]);
    const past = await list(`customer_id=${DEMO_IDS.customerEva}&offset=50`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual({ product_reservations: [], total_items: 5 });
  });

  it.each([
    ['reservation_state=9', 'reservation_state', 'not_allowed_value'],
    ['reservation_state=x', 'reservation_state', 'invalid_value_format'],
    ['reservation_code=abc', 'reservation_code', 'invalid_value_format'],
    ['customer_id=nobody', 'customer_id', 'invalid_value_format'],
    ['store_id=nowhere', 'store_id', 'invalid_value_format'],
    ['sort_field=colour', 'sort_field', 'not_allowed_value'],
    ['count=1001', 'count', 'not_allowed_value'],
  ])('refuses %s with its reason', async (query, name, reason) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it('shows a logged-in customer only its own reservations', async () => {
    const own = await list('', jana, customer);
    expect(own.status).toBe(200);
    expect(own.body.data.total_items).toBeGreaterThan(0);
    expect(own.body.data.product_reservations.every((r: any) => r.customer_id === DEMO_IDS.customerJana)).toBe(true);
    const other = await list(`customer_id=${DEMO_IDS.customerEva}`, jana, customer);
    expect(other.status).toBe(400);
    expect(other.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'customer_id', reason: 'not_belong_to_logged_in_customer' });
  });

  it('answers 403 to a customer-interface token with no customer logged in', async () => {
    const { headers } = await demoToken(server);
    const response = await list('', headers, customer);
    expect(response.status).toBe(403);
  });
});

describe('GET /product-reservations/{id}', () => {
  it('answers 404 for an unknown id', async () => {
    const response = await call('GET', `${enterprise}/product-reservations/ffffffffffffffffffffffffff`, { headers: pos });
    expect(response.status).toBe(404);
    expect(response.body.error.exception).toBe('not_found_exception');
  });

  it("refuses another customer's reservation in the customer interface", async () => {
    const id = await create();
    const response = await call('GET', `${customer}/product-reservations/${id}`, { headers: jana });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ reason: 'not_belong_to_logged_in_customer', value: id });
    const own = await create({ customer_id: DEMO_IDS.customerJana });
    const ownResponse = await call('GET', `${customer}/product-reservations/${own}`, { headers: jana });
    expect(ownResponse.status).toBe(200);
    expect(ownResponse.body.data.product_reservation_id).toBe(own);
  });
});

describe('POST /product-reservations/{id}/actions/cancel-reservation', () => {
  it('moves the reservation to Canceled with 204, writing the fact and the derived state', async () => {
    const id = await create();
    const seq = lastOutboxSeq(server);
    const response = await cancel(id);
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(queuedChangesSince(server, seq)).toEqual({ reservation_state_changes: 1, product_reservations: 1 });
    const read = await call('GET', `${enterprise}/product-reservations/${id}`, { headers: pos });
    expect(read.body.data).toMatchObject({ actual_state: 0, states: ['0', '1'] });
  });

  it('cancels a cancelled reservation as a no-op 204 that writes nothing', async () => {
    const id = await create();
    await cancel(id);
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    const again = await cancel(id);
    expect(again.status).toBe(204);
    expect(queuedChangesSince(server, seq)).toEqual({});
    expect(outboxKindsSince(server, outbox)).toEqual([]);
  });

  it('folds a second cancel made elsewhere into one Canceled state', async () => {
    const id = await create();
    await cancel(id);
    insertReservationStateChange(server, id, 0);
    const read = await call('GET', `${enterprise}/product-reservations/${id}`, { headers: pos });
    expect(read.body.data).toMatchObject({ actual_state: 0, states: ['0', '1'] });
  });

  it('refuses a body id that differs from the path id', async () => {
    const id = await create();
    const other = await create();
    const response = await cancel(id, pos, enterprise, other);
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'product_reservation_id', reason: 'not_allowed_value' });
    const read = await call('GET', `${enterprise}/product-reservations/${id}`, { headers: pos });
    expect(read.body.data.actual_state).toBe(1);
  });

  it('requires the body id', async () => {
    const id = await create();
    const response = await call('POST', `${enterprise}/product-reservations/${id}/actions/cancel-reservation`, { headers: pos, body: {} });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'product_reservation_id', reason: 'required' });
  });

  it('answers 404 for an unknown reservation', async () => {
    const response = await cancel('ffffffffffffffffffffffffff');
    expect(response.status).toBe(404);
  });

  it('lets a logged-in customer cancel its own reservation only', async () => {
    const others = await create();
    const refused = await cancel(others, jana, customer);
    expect(refused.status).toBe(400);
    expect(refused.body.error.error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
    const own = await create({ customer_id: DEMO_IDS.customerJana });
    expect((await cancel(own, jana, customer)).status).toBe(204);
  });
});

listChecks(
  'GET /product-reservations (enterprise)',
  () => ({
    url: `${server.api('enterprise')}/product-reservations`,
    headers: pos,
    plural: 'product_reservations',
    idField: 'product_reservation_id',
  }),
  [
    ['reservation_state=9', 'reservation_state'],
    ['reservation_state=open', 'reservation_state'],
  ],
);
