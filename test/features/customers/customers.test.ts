import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { createCustomer, invalidParam, janaSession, loginByEmail, person, UNKNOWN_ID, type Session } from '../../support/customers-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { queuedChangeCount } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
let jana: Session;
/** Ids of Test1..Test6, made in beforeAll. */
const made: string[] = [];
const enterprise = (path: string) => `${server.api('enterprise')}${path}`;
const customerApi = (path: string) => `${server.api('customer')}${path}`;
const get = (path: string) => call('GET', enterprise(path), { headers: pos });
const post = (body: unknown) => call('POST', enterprise('/customers'), { headers: pos, body });
const put = (id: string, body: unknown) => call('PUT', enterprise(`/customers/${id}`), { headers: pos, body });
const ids = (response: Awaited<ReturnType<typeof call>>) =>
  response.body.data.customers.map((customer: { customer_id: string }) => customer.customer_id);

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = await janaSession(server);
  for (let n = 1; n <= 6; n += 1) {
    made.push(
      await createCustomer(server, pos, {
        customer: { personal_information: person(n) },
        customer_source: { customer_source_id: n <= 2 ? 'eshop' : 'pos', external_id: `X${n}` },
      }),
    );
  }
});
afterAll(() => server.close());

describe('POST /customers', () => {
  it('answers 201 with the id; the customer reads back in the OpenAPI shape with empty fields null', async () => {
    const created = await post({ customer: { personal_information: person(100, { phone: '+420 123 456 789', gender: 2 }) }, autologin: false });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data)).toEqual(['customer_id']);
    const read = await get(`/customers/${created.body.data.customer_id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      customer_id: created.body.data.customer_id,
      personal_information: {
        gender: 2,
        first_name: 'Test100',
        last_name: 'Even',
        birthdate: '1990-01-17',
        email: 'test100@example.com',
        phone: '420123456789',
        language_id: 'cs',
        store_id: DEMO_IDS.storeCentral,
        address: {
          address1: 'Street 100',
          address2: null,
          address3: null,
          address4: null,
          address5: null,
          address6: null,
          address7: null,
          zip: '60200',
          city: 'Brno',
          country_code: 'cz',
        },
        agreement: { agreement_gtc: 1, agreement_profiling: 0, agreement_marketing_communication: 0, custom_agreements: [] },
      },
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      state: 1,
    });
  });

  it('queues a row change per record: the customer and its source record', async () => {
    let before = queuedChangeCount(server);
    await post({ customer: { personal_information: person(101) }, customer_source: { customer_source_id: 'kiosk' } });
    expect(queuedChangeCount(server) - before).toBe(2);
    before = queuedChangeCount(server);
    await post({ customer: { personal_information: person(102) } });
    expect(queuedChangeCount(server) - before).toBe(1);
  });

  it('stores the password as an scrypt hash, never in clear', async () => {
    const id = (await post({ customer: { personal_information: person(103) }, password: 'Secret123', autologin: true })).body.data.customer_id;
    const stored = server.app.node.db.prepare('SELECT password_hash FROM customers WHERE id = ?').get(id) as { password_hash: string };
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('Secret123');
  });

  it('refuses an unknown store, a malformed e-mail, a taken e-mail, a weak password, autologin without password, an unknown gender', async () => {
    expect(invalidParam(await post({ customer: { personal_information: person(110, { store_id: UNKNOWN_ID }) } }))).toMatchObject({
      name: 'customer.personal_information.store_id',
      reason: 'not_found',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(111, { email: 'nope' }) } }))).toMatchObject({
      name: 'customer.personal_information.email',
      reason: 'invalid_value_format',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(112, { email: 'TEST1@example.com' }) } }))).toMatchObject({
      name: 'customer.personal_information.email',
      reason: 'already_exists',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(113) }, password: 'short' }))).toMatchObject({
      name: 'password',
      reason: 'not_allowed_value',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(113) }, password: 'longbutnodigits' }))).toMatchObject({
      name: 'password',
      reason: 'not_allowed_value',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(114) }, autologin: true }))).toMatchObject({
      name: 'password',
      reason: 'required',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(115, { gender: 3 }) } }))).toMatchObject({
      name: 'customer.personal_information.gender',
      reason: 'not_allowed_value',
    });
    expect(invalidParam(await post({ customer: { personal_information: person(116, { phone: '420-abc' }) } }))).toMatchObject({
      name: 'customer.personal_information.phone',
      reason: 'invalid_value_format',
    });
    expect(invalidParam(await post({ customer: {} }))).toMatchObject({ name: 'customer.personal_information', reason: 'required' });
  });
});

describe('GET /customers', () => {
  it('answers the customers key and a total_items that counts every match, not just the page', async () => {
    const response = await get('/customers?count=2');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data)).toEqual(['customers', 'total_items']);
    expect(response.body.data.customers).toHaveLength(2);
    const all = server.app.node.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number };
    expect(response.body.data.total_items).toBe(all.n);
    expect(all.n).toBeGreaterThan(2);
  });

  it('each filter of the OpenAPI file narrows the list', async () => {
    expect(ids(await get('/customers?email=TEST3@example.com'))).toEqual([made[2]]);
    expect(ids(await get('/customers?phone=%2B420600000004'))).toEqual([made[3]]);
    expect(ids(await get('/customers?phone=420600000004'))).toEqual([made[3]]);
    expect(ids(await get('/customers?first_name=Test5'))).toEqual([made[4]]);
    expect(ids(await get('/customers?last_name=Odd&first_name=Test3'))).toEqual([made[2]]);
    const evens = await get('/customers?last_name=Even&count=1000');
    expect(ids(evens)).toEqual(expect.arrayContaining([made[1], made[3], made[5]]));
    expect(evens.body.data.customers.every((c: { personal_information: { last_name: string } }) => c.personal_information.last_name === 'Even')).toBe(
      true,
    );
    expect(ids(await get('/customers?birthdate=1990-01-07'))).toEqual([made[5]]);
    expect(ids(await get('/customers?birthdate=07.01.1990'))).toEqual([made[5]]);
    expect(ids(await get('/customers?customer_source_id=eshop'))).toEqual([made[0], made[1]].sort());
    expect(ids(await get('/customers?email_list[]=test1@example.com&email_list[]=TEST2@example.com')).sort()).toEqual([made[0], made[1]].sort());
    expect(ids(await get(`/customers?customer_ids=${made[3]},${made[4]}`)).sort()).toEqual([made[3], made[4]].sort());
    expect(ids(await get('/customers?email=nobody@example.com'))).toEqual([]);
  });

  it('counts every match of a filter in total_items when the page is smaller', async () => {
    const fromPos = await get('/customers?customer_source_id=pos&count=1');
    expect(fromPos.body.data.customers).toHaveLength(1);
    expect(fromPos.body.data.total_items).toBe(4);
  });

  it('sorts by customer_id in both directions; last_change, which no index orders, answers 400 not_allowed_value', async () => {
    expect(invalidParam(await get('/customers?sort_field=last_change'))).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    for (const field of ['customer_id']) {
      const up = ids(await get(`/customers?sort_field=${field}&sort_direction=ASC&count=1000`));
      const down = ids(await get(`/customers?sort_field=${field}&sort_direction=desc&count=1000`));
      expect(down).toEqual([...up].reverse());
    }
    const up = ids(await get('/customers?sort_field=customer_id&count=1000'));
    expect(up).toEqual([...up].sort());
  });

  it('pages with count and offset, and answers [] past the end with the total', async () => {
    const all = ids(await get('/customers?count=1000'));
    expect(ids(await get('/customers?count=2&offset=2'))).toEqual(all.slice(2, 4));
    expect((await get('/customers?offset=5000')).body.data).toEqual({ customers: [], total_items: all.length });
  });

  it('answers an invalid filter or paging value with 400 and its reason', async () => {
    expect(invalidParam(await get('/customers?birthdate=1990/01/02'))).toMatchObject({ name: 'birthdate', reason: 'invalid_value_format' });
    expect(invalidParam(await get('/customers?birthdate=1990-02-30'))).toMatchObject({ name: 'birthdate', reason: 'invalid_value_format' });
    expect(invalidParam(await get('/customers?phone=call-me'))).toMatchObject({ name: 'phone', reason: 'invalid_value_format' });
    expect(invalidParam(await get('/customers?sort_field=shoe_size'))).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
    expect(invalidParam(await get('/customers?count=1001'))).toMatchObject({ name: 'count', reason: 'not_allowed_value' });
    expect(invalidParam(await get('/customers?sort_direction=UP'))).toMatchObject({ name: 'sort_direction', reason: 'not_allowed_value' });
  });
});

describe('GET /customers/{customer_id}', () => {
  it('answers one customer, and 404 naming an unknown one', async () => {
    expect((await get(`/customers/${DEMO_IDS.customerJana}`)).body.data).toMatchObject({
      customer_id: DEMO_IDS.customerJana,
      personal_information: { first_name: 'Jana', email: demoCredentials.customer_email, gender: 2, phone: null, birthdate: null },
    });
    const error = expectError(await get(`/customers/${UNKNOWN_ID}`), 404, 'not_found_exception');
    expect(error.error_data).toEqual({ resource_name: 'customers', resource_id: UNKNOWN_ID });
  });
});

describe('PUT /customers/{customer_id}', () => {
  it('changes only the fields sent (204), queuing one row change', async () => {
    const before = queuedChangeCount(server);
    const response = await put(made[0]!, { customer: { personal_information: { last_name: 'Renamed', address: { city: 'Ostrava' } } } });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(queuedChangeCount(server) - before).toBe(1);
    expect((await get(`/customers/${made[0]}`)).body.data.personal_information).toMatchObject({
      first_name: 'Test1',
      last_name: 'Renamed',
      email: 'test1@example.com',
      address: { city: 'Ostrava' },
    });
  });

  it('sets a new password the customer can log in with', async () => {
    expect((await put(made[1]!, { customer: { personal_information: {} }, password: 'NewSecret42' })).status).toBe(204);
    expect((await loginByEmail(server, await demoToken(server), 'test2@example.com', 'NewSecret42')).status).toBe(200);
  });

  it('keeps a customer its own e-mail but refuses another customer’s, an unknown store, and removing the store', async () => {
    expect((await put(made[2]!, { customer: { personal_information: { email: 'TEST3@example.com' } } })).status).toBe(204);
    expect(invalidParam(await put(made[2]!, { customer: { personal_information: { email: 'test4@example.com' } } }))).toMatchObject({
      name: 'customer.personal_information.email',
      reason: 'already_exists',
    });
    expect(invalidParam(await put(made[2]!, { customer: { personal_information: { store_id: UNKNOWN_ID } } }))).toMatchObject({
      name: 'customer.personal_information.store_id',
      reason: 'not_found',
    });
    expect(invalidParam(await put(made[2]!, { customer: { personal_information: { store_id: null } } }))).toMatchObject({
      name: 'customer.personal_information.store_id',
      reason: 'not_allowed_value',
    });
  });

  it('answers 404 for an unknown customer', async () => {
    expectError(await put(UNKNOWN_ID, { customer: { personal_information: { first_name: 'X' } } }), 404, 'not_found_exception');
  });
});

describe('customers in the customer interface', () => {
  const asJana = (method: string, path: string, body?: unknown) => call(method, customerApi(path), { headers: jana.headers, body });

  it('lists only the logged-in customer, whatever the filters ask', async () => {
    expect((await asJana('GET', '/customers')).body.data).toEqual({
      total_items: 1,
      customers: [expect.objectContaining({ customer_id: DEMO_IDS.customerJana })],
    });
    expect((await asJana('GET', `/customers?customer_ids=${DEMO_IDS.customerPetr}`)).body.data).toEqual({ customers: [], total_items: 0 });
    expect((await asJana('GET', '/customers?email=test1@example.com')).body.data.total_items).toBe(0);
  });

  it('reads and changes its own record; another customer’s answers not_belong_to_logged_in_customer', async () => {
    expect((await asJana('GET', `/customers/${DEMO_IDS.customerJana}`)).body.data.customer_id).toBe(DEMO_IDS.customerJana);
    expect(invalidParam(await asJana('GET', `/customers/${DEMO_IDS.customerPetr}`))).toMatchObject({
      name: 'customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
    expect((await asJana('PUT', `/customers/${DEMO_IDS.customerJana}`, { customer: { personal_information: { language_id: 'en' } } })).status).toBe(
      204,
    );
    expect((await asJana('GET', `/customers/${DEMO_IDS.customerJana}`)).body.data.personal_information.language_id).toBe('en');
    expect(
      invalidParam(await asJana('PUT', `/customers/${DEMO_IDS.customerPetr}`, { customer: { personal_information: { first_name: 'X' } } })),
    ).toMatchObject({
      reason: 'not_belong_to_logged_in_customer',
    });
    expect((await get(`/customers/${DEMO_IDS.customerPetr}`)).body.data.personal_information.first_name).toBe('Petr');
  });

  it('a token with no customer logged in may register one but not read customers (403)', async () => {
    const anonymous = await demoToken(server);
    expectError(await call('GET', customerApi('/customers'), { headers: anonymous.headers }), 403, 'forbidden_exception');
    const created = await call('POST', customerApi('/customers'), {
      headers: anonymous.headers,
      body: { customer: { personal_information: person(200) }, autologin: false },
    });
    expect(created.status).toBe(201);
    expectError(await call('GET', customerApi('/customers'), { headers: anonymous.headers }), 403, 'forbidden_exception');
  });

  it('registration with autologin logs the new customer in on the calling token', async () => {
    const session = await demoToken(server);
    const created = await call('POST', customerApi('/customers'), {
      headers: session.headers,
      body: {
        customer: { personal_information: person(201) },
        customer_source: { customer_source_id: 'app' },
        password: 'Secret123',
        autologin: true,
      },
    });
    expect(created.status).toBe(201);
    const own = await call('GET', customerApi('/customers'), { headers: session.headers });
    expect(ids(own)).toEqual([created.body.data.customer_id]);
  });
});

listChecks('GET /customers (enterprise)', () => ({
  url: `${server.api('enterprise')}/customers`,
  headers: pos,
  plural: 'customers',
  idField: 'customer_id',
}));
