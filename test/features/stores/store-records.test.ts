import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_NESTING_LIMIT } from '../../../src/core/schemas.js';
import { MAX_JSON_DEPTH } from '../../../src/core/json-depth.js';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { insertStoreGroup, insertStoreGroupRecord } from '../../support/catalog-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
let enterprise: string;
let stores = 0;
const contract = new OpenApiContract();
const UNKNOWN = 'ffffffffffffffffffffffffff';

async function createStore(): Promise<string> {
  stores += 1;
  const response = await call('POST', `${enterprise}/stores`, {
    headers: pos,
    body: { store: { store_code: `R-${stores}`, name: `Records ${stores}`, partner_id: 'p', system_id: `s-${stores}` } },
  });
  expect(response.status).toBe(201);
  return response.body.data.store_id as string;
}

function postRecord(storeId: string, record: Record<string, unknown>, path = 'stores') {
  return call('POST', `${enterprise}/${path}/${storeId}/property-records`, { headers: pos, body: { property_record: record } });
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  enterprise = server.api('enterprise');
});
afterAll(() => server.close());

describe('POST property records', () => {
  it.each(['store', 'stores'])('adds a record under /%s/{store_id}/property-records named <property_id>:<store_id>', async (path) => {
    const storeId = await createStore();
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    const response = await postRecord(storeId, { property_id: 'opened_on', property_name: 'Opened on', property_value: '2022-10-31' }, path);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ data: { property_record_id: `opened_on:${storeId}` } });
    expect(queuedChangesSince(server, seq)).toEqual({ store_property_records: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['store-property-records.create']);
    const list = await call('GET', `${enterprise}/stores/${storeId}/property-records`, { headers: pos });
    expect(list.body.data.property_records).toEqual([
      {
        property_record_id: `opened_on:${storeId}`,
        property_id: 'opened_on',
        property_name: 'Opened on',
        property_value: '2022-10-31',
        last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      },
    ]);
    expect(contract.check('get', '/stores/{store_id}/property-records', 200, list.body)).toEqual([]);
  });

  it('keeps structured values as given and names a record without a name by its property', async () => {
    const storeId = await createStore();
    await postRecord(storeId, { property_id: 'services', property_value: ['wifi', 'parking'] });
    await postRecord(storeId, { property_id: 'seats', property_value: 40 });
    await postRecord(storeId, { property_id: 'closed', property_value: null });
    const records = (await call('GET', `${enterprise}/stores/${storeId}/property-records`, { headers: pos })).body.data.property_records;
    expect(records.map((r: any) => [r.property_id, r.property_name, r.property_value])).toEqual([
      ['closed', 'closed', null],
      ['seats', 'seats', 40],
      ['services', 'services', ['wifi', 'parking']],
    ]);
  });

  it(`keeps a value nested ${JSON_NESTING_LIMIT} levels and refuses deeper ones with 400, however deep (the fuzz sent 2 000 levels: 500)`, async () => {
    const storeId = await createStore();
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const send = (id: string, depth: number) =>
      call('POST', `${enterprise}/stores/${storeId}/property-records`, {
        headers: pos,
        rawBody: `{"property_record": {"property_id": "${id}", "property_value": ${nested(depth)}}}`,
      });
    expect((await send('at_limit', JSON_NESTING_LIMIT)).status).toBe(201);
    for (const depth of [JSON_NESTING_LIMIT + 1, 2_000, 200_000]) {
      const refused = await send(`deeper_${depth}`, depth);
      // Past the depth any body may nest, the body itself is refused (src/core/json-depth.ts).
      expect(expectError(refused, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
        expect.objectContaining({ name: depth > MAX_JSON_DEPTH ? 'body' : 'property_record.property_value', reason: 'invalid_value_format' }),
      ]);
    }
    const id = `at_limit:${storeId}`;
    const update = await call('PUT', `${enterprise}/stores/${storeId}/property-records/${id}`, {
      headers: pos,
      rawBody: `{"property_record": {"property_value": ${nested(5_000)}}}`,
    });
    expectError(update, 400, 'invalid_params_exception');
  });

  it('refuses a second record of the same property with already_exists', async () => {
    const storeId = await createStore();
    await postRecord(storeId, { property_id: 'seats', property_value: 40 });
    const again = await postRecord(storeId, { property_id: 'seats', property_value: 50 });
    expect(expectError(again, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'property_record.property_id',
      reason: 'already_exists',
      value: 'seats',
    });
  });

  it('requires property_id and property_value', async () => {
    const storeId = await createStore();
    const response = await postRecord(storeId, {});
    const params = expectError(response, 400, 'invalid_params_exception').error_data.invalid_params;
    expect(params.map((p: any) => [p.name, p.reason])).toEqual([
      ['property_record.property_id', 'required'],
      ['property_record.property_value', 'required'],
    ]);
  });

  it('answers 404 for an unknown store under both paths', async () => {
    for (const path of ['store', 'stores']) {
      const response = await postRecord(UNKNOWN, { property_id: 'seats', property_value: 1 }, path);
      expect(expectError(response, 404, 'not_found_exception').error_data.resource_name).toBe('stores');
    }
  });

  it('is not offered in the customer interface', async () => {
    for (const path of ['store', 'stores']) {
      const response = await call('POST', `${server.api('customer')}/${path}/${DEMO_IDS.storeCentral}/property-records`, {
        headers: token,
        body: { property_record: { property_id: 'seats', property_value: 1 } },
      });
      expectError(response, 403, 'interface_not_allowed_exception');
    }
  });
});

describe('PUT and DELETE property records', () => {
  it('updates the value of a record with 204, queuing one row change', async () => {
    const storeId = await createStore();
    const id = (await postRecord(storeId, { property_id: 'seats', property_name: 'Seats', property_value: 40 })).body.data.property_record_id;
    const seq = lastOutboxSeq(server);
    const response = await call('PUT', `${enterprise}/stores/${storeId}/property-records/${id}`, {
      headers: pos,
      body: { property_record: { property_id: 'seats', property_value: 55 } },
    });
    expect(response.status).toBe(204);
    expect(queuedChangesSince(server, seq)).toEqual({ store_property_records: 1 });
    const records = (await call('GET', `${enterprise}/stores/${storeId}/property-records`, { headers: pos })).body.data.property_records;
    expect(records).toMatchObject([{ property_record_id: id, property_name: 'Seats', property_value: 55 }]);
  });

  it('accepts the record id URL-encoded', async () => {
    const storeId = await createStore();
    const id = (await postRecord(storeId, { property_id: 'seats', property_value: 1 })).body.data.property_record_id as string;
    const response = await call('PUT', `${enterprise}/stores/${storeId}/property-records/${encodeURIComponent(id)}`, {
      headers: pos,
      body: { property_record: { property_value: 2 } },
    });
    expect(response.status).toBe(204);
  });

  it('refuses to move a record to another property', async () => {
    const storeId = await createStore();
    const id = (await postRecord(storeId, { property_id: 'seats', property_value: 40 })).body.data.property_record_id;
    const response = await call('PUT', `${enterprise}/stores/${storeId}/property-records/${id}`, {
      headers: pos,
      body: { property_record: { property_id: 'tables', property_value: 5 } },
    });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'property_record.property_id',
      reason: 'not_allowed_value',
    });
  });

  it('deletes a record with 204 and queues one delete', async () => {
    const storeId = await createStore();
    const id = (await postRecord(storeId, { property_id: 'seats', property_value: 40 })).body.data.property_record_id;
    await postRecord(storeId, { property_id: 'tables', property_value: 5 });
    const seq = lastOutboxSeq(server);
    const response = await call('DELETE', `${enterprise}/stores/${storeId}/property-records/${id}`, { headers: pos });
    expect(response.status).toBe(204);
    expect(queuedChangesSince(server, seq)).toEqual({ store_property_records: 1 });
    const op = server.app.node.db
      .prepare<[number], string>("SELECT json_extract(change.value, '$.op') FROM outbox, json_each(outbox.changes) AS change WHERE outbox.seq > ?")
      .pluck()
      .get(seq);
    expect(op).toBe('delete');
    const records = (await call('GET', `${enterprise}/stores/${storeId}/property-records`, { headers: pos })).body.data;
    expect(records.property_records.map((r: any) => r.property_id)).toEqual(['tables']);
    expect(records.total_items).toBe(1);
    expectError(await call('DELETE', `${enterprise}/stores/${storeId}/property-records/${id}`, { headers: pos }), 404, 'not_found_exception');
  });

  it('answers 404 for a record of another store and for an unknown store', async () => {
    const owner = await createStore();
    const other = await createStore();
    const id = (await postRecord(owner, { property_id: 'seats', property_value: 40 })).body.data.property_record_id;
    const body = { property_record: { property_value: 1 } };
    const wrongStore = await call('PUT', `${enterprise}/stores/${other}/property-records/${id}`, { headers: pos, body });
    expect(expectError(wrongStore, 404, 'not_found_exception').error_data.resource_name).toBe('property-records');
    const unknownStore = await call('DELETE', `${enterprise}/stores/${UNKNOWN}/property-records/${id}`, { headers: pos });
    expect(expectError(unknownStore, 404, 'not_found_exception').error_data.resource_name).toBe('stores');
  });

  it('is not offered in the customer interface', async () => {
    const url = `${server.api('customer')}/stores/${DEMO_IDS.storeCentral}/property-records/seats:${DEMO_IDS.storeCentral}`;
    expectError(await call('PUT', url, { headers: token, body: { property_record: { property_value: 1 } } }), 403, 'interface_not_allowed_exception');
    expectError(await call('DELETE', url, { headers: token }), 403, 'interface_not_allowed_exception');
  });
});

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('store subresource lists in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });
  let storeId: string;
  let groups: string[];
  let records: string[];

  beforeAll(async () => {
    storeId = await createStore();
    for (const [property, value] of [
      ['a_seats', 40],
      ['b_tables', 5],
      ['c_wifi', true],
    ] as const)
      await postRecord(storeId, { property_id: property, property_value: value });
    groups = ['North', 'Airports', 'Flagships'].map((name) => insertStoreGroup(server, name));
    records = groups.map((group) => insertStoreGroupRecord(server, storeId, group));
    insertStoreGroupRecord(server, DEMO_IDS.storeCentral, groups[0]!);
  });

  it('pages property records with total_items counting all of them', async () => {
    const page = await get(`/stores/${storeId}/property-records?count=2`);
    expect(page.status).toBe(200);
    expect(page.body.data.property_records.map((r: any) => r.property_id)).toEqual(['a_seats', 'b_tables']);
    expect(page.body.data.total_items).toBe(3);
    expect((await get(`/stores/${storeId}/property-records?offset=3`)).body.data).toEqual({ property_records: [], total_items: 3 });
  });

  it('sorts property records in both directions', async () => {
    const ids = (direction: string) =>
      get(`/stores/${storeId}/property-records?sort_field=property_id&sort_direction=${direction}`).then((r) =>
        r.body.data.property_records.map((p: any) => p.property_id),
      );
    expect(await ids('ASC')).toEqual(['a_seats', 'b_tables', 'c_wifi']);
    expect(await ids('DESC')).toEqual(['c_wifi', 'b_tables', 'a_seats']);
    expectError(await get(`/stores/${storeId}/property-records?sort_field=colour`), 400, 'invalid_params_exception');
  });

  it("lists the store's group records in the StoreGroupRecord shape", async () => {
    const list = await get(`/stores/${storeId}/store-group-records`);
    expect(list.status).toBe(200);
    expect(contract.check('get', '/stores/{store_id}/store-group-records', 200, list.body)).toEqual([]);
    expect(list.body.data.total_items).toBe(3);
    expect(list.body.data.store_group_records[0]).toEqual({
      store_group_record_id: records[0],
      store_id: storeId,
      store_group_id: groups[0],
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
    });
  });

  it('pages and sorts group records', async () => {
    const page = await get(`/stores/${storeId}/store-group-records?count=2&sort_direction=DESC`);
    expect(page.body.data.store_group_records.map((r: any) => r.store_group_record_id)).toEqual([records[2], records[1]]);
    expect(page.body.data.total_items).toBe(3);
    expect((await get(`/stores/${storeId}/store-group-records?offset=5`)).body.data).toEqual({ store_group_records: [], total_items: 3 });
  });

  it('answers 404 for an unknown store', async () => {
    expect(expectError(await get(`/stores/${UNKNOWN}/property-records`), 404, 'not_found_exception').error_data.resource_name).toBe('stores');
    expect(expectError(await get(`/stores/${UNKNOWN}/store-group-records`), 404, 'not_found_exception').error_data.resource_name).toBe('stores');
  });
});
