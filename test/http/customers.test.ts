import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { expectError } from '../support/expect-error.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let auth: Record<string, string>;
const api = (path: string) => `${server.api('enterprise')}${path}`;
const get = (path: string) => call('GET', api(path), { headers: auth });
const changes = () => (server.app.node.db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n;
const reason = (response: Awaited<ReturnType<typeof call>>) => expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0];

const person = (n: number, extra: Record<string, unknown> = {}) => ({
  customer: {
    personal_information: {
      first_name: `Test${n}`,
      last_name: n >= 100 ? 'Later' : n % 2 ? 'Odd' : 'Even',
      email: `test${n}@example.com`,
      phone: `+420600000${String(n).padStart(3, '0')}`,
      birthdate: `1990-01-${String((n % 28) + 1).padStart(2, '0')}`,
      store_id: DEMO_IDS.storeCentral,
      address: { address1: `Street ${n}`, city: 'Brno', zip: '60200', country_code: 'cz' },
      agreement: { agreement_gtc: 1 },
      ...extra,
    },
  },
});

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
  for (let n = 1; n <= 6; n += 1) {
    const created = await call('POST', api('/customers'), { headers: auth, body: { ...person(n), customer_source: { customer_source_id: n <= 2 ? 'eshop' : 'pos', external_id: `X${n}` } } });
    expect(created.status).toBe(201);
  }
});
afterAll(() => server.close());

describe('customers', () => {
  it('POST answers 201 with the id; the customer reads back in the OpenAPI shape, empty fields null', async () => {
    const created = await call('POST', api('/customers'), { headers: auth, body: person(100, { phone: 420123456789 }) });
    expect(created.status).toBe(201);
    const read = await get(`/customers/${created.body.data.customer_id}`);
    expect(read.body.data).toMatchObject({
      customer_id: created.body.data.customer_id,
      personal_information: {
        first_name: 'Test100',
        phone: '420123456789',
        gender: null,
        language_id: null,
        address: { address1: 'Street 100', address2: null, city: 'Brno', country_code: 'cz' },
        agreement: { agreement_gtc: 1, agreement_profiling: 0, custom_agreements: [] },
      },
      state: 1,
    });
    expect(read.body.data.last_change).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it('a create writes one change-feed row per record: the customer and its source record', async () => {
    const before = changes();
    await call('POST', api('/customers'), { headers: auth, body: { ...person(101), customer_source: { customer_source_id: 'kiosk' } } });
    expect(changes() - before).toBe(2);
  });

  it('POST refuses an unknown store, a malformed e-mail, a short password', async () => {
    expect(reason(await call('POST', api('/customers'), { headers: auth, body: person(102, { store_id: 'ffffffffffffffffffffffffff' }) }))).toMatchObject({ name: 'customer.personal_information.store_id', reason: 'not_found' });
    expect(reason(await call('POST', api('/customers'), { headers: auth, body: person(103, { email: 'nope' }) }))).toMatchObject({ name: 'customer.personal_information.email', reason: 'invalid_value_format' });
    expect(reason(await call('POST', api('/customers'), { headers: auth, body: { ...person(104), password: 'short' } }))).toMatchObject({ name: 'password', reason: 'not_allowed_value' });
  });

  it('each filter narrows the list and total_items counts every match', async () => {
    expect((await get('/customers?email=TEST3@example.com')).body.data.customers.map((c: any) => c.personal_information.first_name)).toEqual(['Test3']);
    expect((await get('/customers?phone=%2B420600000004')).body.data.total_items).toBe(1);
    expect((await get('/customers?last_name=Odd&count=1')).body.data).toMatchObject({ total_items: 3 });
    expect((await get('/customers?first_name=Test5')).body.data.total_items).toBe(1);
    expect((await get('/customers?birthdate=1990-01-07')).body.data.customers[0].personal_information.first_name).toBe('Test6');
    expect((await get('/customers?customer_source_id=eshop')).body.data.total_items).toBe(2);
  });

  it('sorts both ways, pages, and answers [] past the end with the total', async () => {
    const ascending = (await get('/customers?sort_field=customer_id&sort_direction=ASC&count=1000')).body.data.customers.map((c: any) => c.customer_id);
    const descending = (await get('/customers?sort_field=customer_id&sort_direction=DESC&count=1000')).body.data.customers.map((c: any) => c.customer_id);
    expect(descending).toEqual([...ascending].reverse());
    const page = await get('/customers?count=2&offset=2');
    expect(page.body.data.customers.map((c: any) => c.customer_id)).toEqual(ascending.slice(2, 4));
    expect((await get('/customers?offset=500')).body.data).toEqual({ customers: [], total_items: ascending.length });
  });

  it('an invalid filter or sort field answers 400 with its reason; an unknown id 404', async () => {
    expect(reason(await get('/customers?birthdate=01/02/1990'))).toMatchObject({ name: 'birthdate', reason: 'invalid_value_format' });
    expect(reason(await get('/customers?sort_field=shoe_size'))).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    expectError(await get('/customers/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
  });

  it('PUT changes only the fields sent (204); an unknown customer 404', async () => {
    const id = (await get('/customers?first_name=Test1')).body.data.customers[0].customer_id;
    expect((await call('PUT', api(`/customers/${id}`), { headers: auth, body: { customer: { personal_information: { last_name: 'Renamed' } } } })).status).toBe(204);
    expect((await get(`/customers/${id}`)).body.data.personal_information).toMatchObject({ first_name: 'Test1', last_name: 'Renamed' });
    expectError(await call('PUT', api('/customers/ffffffffffffffffffffffffff'), { headers: auth, body: { customer: { personal_information: {} } } }), 404, 'not_found_exception');
  });

  it('a logged-in customer sees and changes only itself', async () => {
    const token = await demoToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: token.headers,
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
    });
    const own = await call('GET', `${server.api('customer')}/customers`, { headers: token.headers });
    expect(own.body.data).toMatchObject({ total_items: 1, customers: [{ customer_id: DEMO_IDS.customerJana }] });
    const other = await call('GET', `${server.api('customer')}/customers/${DEMO_IDS.customerPetr}`, { headers: token.headers });
    expect(reason(other).reason).toBe('not_belong_to_logged_in_customer');
    const change = await call('PUT', `${server.api('customer')}/customers/${DEMO_IDS.customerPetr}`, { headers: token.headers, body: { customer: { personal_information: { first_name: 'X' } } } });
    expect(reason(change).reason).toBe('not_belong_to_logged_in_customer');
  });
});

describe('cards', () => {
  it('GET /cards?card_number= finds the customer of a card', async () => {
    const response = await get(`/cards?card_number=${demoCredentials.customer_card}`);
    expect(response.body.data).toMatchObject({ total_items: 1, cards: [{ customer_id: DEMO_IDS.customerJana, card_number: demoCredentials.customer_card, state: 1 }] });
    const one = await get(`/cards/${response.body.data.cards[0].card_id}`);
    expect(one.body.data).toEqual(response.body.data.cards[0]);
  });

  it('POST /cards answers 201; a taken number already_exists; an unknown customer not_found', async () => {
    const created = await call('POST', api('/cards'), { headers: auth, body: { card: { customer_id: DEMO_IDS.customerEva, card_number: '2000000000999', card_type_id: 'virtual' } } });
    expect(created.status).toBe(201);
    expect((await get(`/cards?customer_id=${DEMO_IDS.customerEva}`)).body.data.total_items).toBe(2);
    expect(reason(await call('POST', api('/cards'), { headers: auth, body: { card: { customer_id: DEMO_IDS.customerEva, card_number: '2000000000999' } } }))).toMatchObject({ name: 'card.card_number', reason: 'already_exists' });
    expect(reason(await call('POST', api('/cards'), { headers: auth, body: { card: { customer_id: 'ffffffffffffffffffffffffff', card_number: '1' } } }))).toMatchObject({ name: 'card.customer_id', reason: 'not_found' });
  });

  it('sorts by card number both ways and answers 404 for an unknown card', async () => {
    const up = (await get('/cards?sort_field=card_number&sort_direction=ASC')).body.data.cards.map((c: any) => c.card_number);
    const down = (await get('/cards?sort_field=card_number&sort_direction=DESC')).body.data.cards.map((c: any) => c.card_number);
    expect(down).toEqual([...up].reverse());
    expectError(await get('/cards/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
  });
});
