import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { demoCustomerSession, insertOrder } from '../../support/reservations-fixtures.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
let jana: Record<string, string>;
let enterprise: string;
let customer: string;

function order(overrides: Record<string, unknown> = {}) {
  return {
    customer_id: DEMO_IDS.customerJana,
    currency_id: 'CZK',
    total_price: '36.00',
    discount_codes: ['SPRING'],
    order_items: [{ product_variant_id: 'variant-1', amount: 2, unit_price: '18.00', vat_rate: 21 }],
    invoicing_data: {
      payment_id: 'card',
      paid_date: '2026-03-01 10:15:00',
      personal_information: { gender: 2, first_name: 'Jana', last_name: 'Nováková', language_id: 'cs', store_id: DEMO_IDS.storeCentral },
    },
    shipping_data: { shipping_id: 'courier', contact_firstname: 'Jana', address: { address1: 'Vinohradská 10', city: 'Prague', zip: '12000' } },
    customer_note: 'Ring twice',
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}) {
  return call('POST', `${customer}/orders`, { headers: jana, body: { order: order(overrides) } });
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = await demoCustomerSession(server);
  enterprise = server.api('enterprise');
  customer = server.api('customer');
});
afterAll(() => server.close());

describe('POST /orders', () => {
  it('creates an order for the logged-in customer and reads it back in the Order shape', async () => {
    const response = await create();
    expect(response.status).toBe(201);
    const id = response.body.data.order_id as string;
    expect(id).toMatch(/^[0-9a-f]{26}$/);
    const read = await call('GET', `${customer}/orders/${id}`, { headers: jana });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      order_id: id,
      order_number: id,
      customer_id: DEMO_IDS.customerJana,
      currency_id: 'CZK',
      total_price: 36,
      discount_codes: ['SPRING'],
      order_items: [{ product_variant_id: 'variant-1', customer_id: DEMO_IDS.customerJana, amount: 2, unit_price: 18, vat_rate: 21 }],
      invoicing_data: { payment_id: 'card', paid_date: '2026-03-01 10:15:00', personal_information: { first_name: 'Jana' } },
      shipping_data: { shipping_id: 'courier', address: { city: 'Prague' } },
      customer_note: 'Ring twice',
    });
    expect(read.body.data.order_items[0].order_item_id).toMatch(/^[0-9a-f]{26}$/);
    expect(read.body.data.last_change).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it('keeps an external order number', async () => {
    const response = await create({ order_number: 'WEB-1001' });
    const read = await call('GET', `${customer}/orders/${response.body.data.order_id}`, { headers: jana });
    expect(read.body.data.order_number).toBe('WEB-1001');
  });

  it('queues one command carrying one row change', async () => {
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    expect((await create()).status).toBe(201);
    expect(queuedChangesSince(server, seq)).toEqual({ orders: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['orders.create']);
  });

  it('refuses an order for another customer than the logged-in one', async () => {
    const seq = lastOutboxSeq(server);
    const response = await create({ customer_id: DEMO_IDS.customerPetr });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'order.customer_id',
      reason: 'not_belong_to_logged_in_customer',
      value: DEMO_IDS.customerPetr,
    });
    expect(queuedChangesSince(server, seq)).toEqual({});
  });

  it('names an unknown store of the personal information with not_found', async () => {
    const response = await create({
      invoicing_data: { payment_id: 'card', personal_information: { store_id: 'ffffffffffffffffffffffffff' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({
      name: 'order.invoicing_data.personal_information.store_id',
      reason: 'not_found',
    });
  });

  it.each([
    [{ order_items: [] }, 'order.order_items', 'empty'],
    [{ total_price: 'lots' }, 'order.total_price', 'invalid_value_format'],
    [{ currency_id: undefined }, 'order.currency_id', 'required'],
    [{ invoicing_data: { personal_information: {} } }, 'order.invoicing_data.payment_id', 'required'],
    [{ invoicing_data: { payment_id: 'card', paid_date: 'yesterday' } }, 'order.invoicing_data.paid_date', 'invalid_value_format'],
  ])('refuses %j', async (overrides, name, reason) => {
    const response = await create(overrides);
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it('is not offered in the enterprise interface', async () => {
    const response = await call('POST', `${enterprise}/orders`, { headers: pos, body: { order: order() } });
    expect(response.status).toBe(403);
    expect(response.body.error.exception).toBe('interface_not_allowed_exception');
  });

  it('answers 403 to a token with no customer logged in', async () => {
    const { headers } = await demoToken(server);
    const response = await call('POST', `${customer}/orders`, { headers, body: { order: order() } });
    expect(response.status).toBe(403);
  });
});

describe('GET /orders', () => {
  let janaOrders: string[];
  let petrOrders: string[];

  beforeAll(async () => {
    janaOrders = [];
    for (const total of ['30', '10', '20']) janaOrders.push((await create({ total_price: total })).body.data.order_id);
    petrOrders = [insertOrder(server, DEMO_IDS.customerPetr), insertOrder(server, DEMO_IDS.customerPetr, 0)];
  });

  it('lists with total_items counting every match beyond one page', async () => {
    const response = await call('GET', `${enterprise}/orders?count=2`, { headers: pos });
    expect(response.status).toBe(200);
    expect(response.body.data.orders).toHaveLength(2);
    const all = await call('GET', `${enterprise}/orders?count=1000`, { headers: pos });
    expect(response.body.data.total_items).toBe(all.body.data.orders.length);
    expect(response.body.data.total_items).toBeGreaterThanOrEqual(5);
  });

  it('filters by customer_id and state', async () => {
    const petr = await call('GET', `${enterprise}/orders?customer_id=${DEMO_IDS.customerPetr}`, { headers: pos });
    expect(petr.body.data.orders.map((o: any) => o.order_id)).toEqual(petrOrders);
    const inactive = await call('GET', `${enterprise}/orders?state=0`, { headers: pos });
    expect(inactive.body.data.orders.map((o: any) => o.order_id)).toEqual([petrOrders[1]]);
    expect(inactive.body.data.total_items).toBe(1);
  });

  it('sorts in both directions and pages past the end', async () => {
    const ascending = await call('GET', `${customer}/orders?sort_field=order_id`, { headers: jana });
    const ids = ascending.body.data.orders.map((o: any) => o.order_id);
    expect(ids).toEqual([...ids].sort());
    expect(ascending.body.data.orders.map((o: any) => o.total_price)).toEqual(expect.arrayContaining([10, 20, 30]));
    const descending = await call('GET', `${customer}/orders?sort_field=order_id&sort_direction=DESC`, { headers: jana });
    expect(descending.body.data.orders.map((o: any) => o.order_id)).toEqual([...ids].reverse());
    const byPrice = await call('GET', `${customer}/orders?sort_field=total_price`, { headers: jana });
    expect(byPrice.status).toBe(400);
    expect(byPrice.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    const past = await call('GET', `${customer}/orders?offset=1000`, { headers: jana });
    expect(past.body.data).toEqual({ orders: [], total_items: ids.length });
  });

  it.each([
    ['state=7', 'state', 'not_allowed_value'],
    ['customer_id=someone', 'customer_id', 'invalid_value_format'],
    ['sort_field=colour', 'sort_field', 'not_allowed_value'],
  ])('refuses %s', async (query, name, reason) => {
    const response = await call('GET', `${enterprise}/orders?${query}`, { headers: pos });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it('shows a logged-in customer only its own orders', async () => {
    const own = await call('GET', `${customer}/orders`, { headers: jana });
    expect(own.body.data.orders.every((o: any) => o.customer_id === DEMO_IDS.customerJana)).toBe(true);
    expect(own.body.data.orders.map((o: any) => o.order_id)).toEqual(expect.arrayContaining(janaOrders));
    const other = await call('GET', `${customer}/orders?customer_id=${DEMO_IDS.customerPetr}`, { headers: jana });
    expect(other.status).toBe(400);
    expect(other.body.error.error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
  });
});

describe('GET /orders/{id}', () => {
  it('reads an order in the enterprise interface and answers 404 for an unknown one', async () => {
    const id = insertOrder(server, DEMO_IDS.customerEva);
    const read = await call('GET', `${enterprise}/orders/${id}`, { headers: pos });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ order_id: id, customer_id: DEMO_IDS.customerEva, total_price: 1 });
    const missing = await call('GET', `${enterprise}/orders/ffffffffffffffffffffffffff`, { headers: pos });
    expect(missing.status).toBe(404);
  });

  it("refuses another customer's order in the customer interface", async () => {
    const id = insertOrder(server, DEMO_IDS.customerEva);
    const response = await call('GET', `${customer}/orders/${id}`, { headers: jana });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'order_id', reason: 'not_belong_to_logged_in_customer' });
  });
});

listChecks('GET /orders (enterprise)', () => ({ url: `${server.api('enterprise')}/orders`, headers: pos, plural: 'orders', idField: 'order_id' }));
