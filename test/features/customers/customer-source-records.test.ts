import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { createCustomer, invalidParam, janaSession, person, UNKNOWN_ID, type Session } from '../../support/customers-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type JsonResponse, type TestServer, enterpriseGetter } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { queuedChangeCount } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
const get = enterpriseGetter(
  () => server,
  () => pos,
);
let jana: Session;
/** Customers Test1..Test5: 1-3 come from the e-shop (external ids E1-E3), 4-5 from the POS. */
const made: string[] = [];
const asJana = (method: string, path: string, body?: unknown) => call(method, `${server.api('customer')}${path}`, { headers: jana.headers, body });
const records = (response: JsonResponse) =>
  response.body.data.customer_source_records as {
    customer_source_record_id: string;
    customer_id: string;
    customer_source_id: string;
    external_id: string | null;
  }[];
const externalIds = (response: JsonResponse) => records(response).map((record) => record.external_id);

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  jana = await janaSession(server);
  for (let n = 1; n <= 5; n += 1) {
    const source = n <= 3 ? { customer_source_id: 'eshop', external_id: `E${n}` } : { customer_source_id: 'pos', external_id: null };
    made.push(await createCustomer(server, pos, { customer: { personal_information: person(n) }, customer_source: source }));
  }
});
afterAll(() => server.close());

describe('GET /customer-source-records', () => {
  it('answers the records POST /customers wrote, in the OpenAPI shape', async () => {
    const response = await get(`/customer-source-records?customer_id=${made[0]}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data)).toEqual(['customer_source_records', 'total_items']);
    expect(response.body.data).toEqual({
      customer_source_records: [
        {
          customer_source_record_id: expect.stringMatching(/^[0-9a-f]{26}$/),
          customer_source_id: 'eshop',
          customer_id: made[0],
          external_id: 'E1',
          last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
        },
      ],
      total_items: 1,
    });
  });

  it('counts every match in total_items when the page is smaller', async () => {
    const response = await get('/customer-source-records?count=2');
    expect(records(response)).toHaveLength(2);
    expect(response.body.data.total_items).toBe(5);
  });

  it('each filter narrows the list; external_ids wins over external_id', async () => {
    expect((await get('/customer-source-records?customer_source_id=eshop')).body.data.total_items).toBe(3);
    expect(
      records(await get('/customer-source-records?customer_source_id=pos'))
        .map((record) => record.customer_id)
        .sort(),
    ).toEqual([made[3], made[4]].sort());
    expect(externalIds(await get('/customer-source-records?external_id=E2'))).toEqual(['E2']);
    expect(externalIds(await get('/customer-source-records?external_ids[]=E1&external_ids[]=E3&sort_field=external_id'))).toEqual(['E1', 'E3']);
    expect(externalIds(await get('/customer-source-records?external_id=E2&external_ids=E3'))).toEqual(['E3']);
    expect(externalIds(await get('/customer-source-records?external_id=E2&customer_source_id=pos'))).toEqual([]);
  });

  it('sorts in both directions and answers [] past the end with the total', async () => {
    for (const field of ['customer_source_record_id', 'external_id']) {
      const up = records(await get(`/customer-source-records?sort_field=${field}&sort_direction=ASC`)).map(
        (record) => record.customer_source_record_id,
      );
      const down = records(await get(`/customer-source-records?sort_field=${field}&sort_direction=DESC`)).map(
        (record) => record.customer_source_record_id,
      );
      expect(down).toEqual([...up].reverse());
    }
    expect(externalIds(await get('/customer-source-records?customer_source_id=eshop&sort_field=external_id&sort_direction=DESC'))).toEqual([
      'E3',
      'E2',
      'E1',
    ]);
    expect((await get('/customer-source-records?offset=100')).body.data).toEqual({ customer_source_records: [], total_items: 5 });
  });

  it('answers an invalid paging or sort value with 400 and its reason', async () => {
    for (const field of ['name', 'customer_id', 'last_change']) {
      expect(invalidParam(await get(`/customer-source-records?sort_field=${field}`))).toMatchObject({
        name: 'sort_field',
        reason: 'not_allowed_value',
      });
    }
    expect(invalidParam(await get('/customer-source-records?offset=-1'))).toMatchObject({ name: 'offset', reason: 'not_allowed_value' });
    expect(invalidParam(await get('/customer-source-records?external_ids='))).toMatchObject({ reason: 'empty' });
  });
});

describe('/customers/{customer_id}/customer-source-records', () => {
  it('lists one customer’s records; an unknown customer answers 404', async () => {
    expect(externalIds(await get(`/customers/${made[1]}/customer-source-records`))).toEqual(['E2']);
    expectError(await get(`/customers/${UNKNOWN_ID}/customer-source-records`), 404, 'not_found_exception');
  });

  it('POST adds a source to a customer (201, one row change queued); the same source twice is relation_already_exists', async () => {
    const before = queuedChangeCount(server);
    const created = await call('POST', `${server.api('enterprise')}/customers/${made[3]}/customer-source-records`, {
      headers: pos,
      body: { customer_source_record: { customer_source_id: 'loyalty-app', external_id: 'APP-4' } },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data)).toEqual(['customer_source_record_id']);
    expect(queuedChangeCount(server) - before).toBe(1);
    expect(externalIds(await get(`/customers/${made[3]}/customer-source-records?customer_source_id=loyalty-app`))).toEqual(['APP-4']);
    const again = await call('POST', `${server.api('enterprise')}/customers/${made[3]}/customer-source-records`, {
      headers: pos,
      body: { customer_source_record: { customer_source_id: 'loyalty-app' } },
    });
    expect(invalidParam(again)).toMatchObject({ name: 'customer_source_record.customer_source_id', reason: 'relation_already_exists' });
    const missing = await call('POST', `${server.api('enterprise')}/customers/${made[3]}/customer-source-records`, {
      headers: pos,
      body: { customer_source_record: {} },
    });
    expect(invalidParam(missing)).toMatchObject({ name: 'customer_source_record.customer_source_id', reason: 'required' });
  });
});

describe('customer source records in the customer interface', () => {
  it('shows only the logged-in customer’s records; naming another customer answers not_belong_to_logged_in_customer', async () => {
    const added = await asJana('POST', `/customers/${DEMO_IDS.customerJana}/customer-source-records`, {
      customer_source_record: { customer_source_id: 'loyalty-app', external_id: 'APP-J' },
    });
    expect(added.status).toBe(201);
    expect((await asJana('GET', '/customer-source-records')).body.data).toEqual({
      customer_source_records: [expect.objectContaining({ customer_id: DEMO_IDS.customerJana, external_id: 'APP-J' })],
      total_items: 1,
    });
    expect(invalidParam(await asJana('GET', `/customer-source-records?customer_id=${made[0]}`))).toMatchObject({
      name: 'customer_id',
      reason: 'not_belong_to_logged_in_customer',
    });
    expect(invalidParam(await asJana('GET', `/customers/${made[0]}/customer-source-records`))).toMatchObject({
      reason: 'not_belong_to_logged_in_customer',
    });
    const foreign = await asJana('POST', `/customers/${made[0]}/customer-source-records`, {
      customer_source_record: { customer_source_id: 'loyalty-app' },
    });
    expect(invalidParam(foreign)).toMatchObject({ reason: 'not_belong_to_logged_in_customer' });
  });
});

listChecks('GET /customer-source-records (enterprise)', () => ({
  url: `${server.api('enterprise')}/customer-source-records`,
  headers: pos,
  plural: 'customer_source_records',
  idField: 'customer_source_record_id',
}));
