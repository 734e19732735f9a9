import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
let enterprise: string;
const contract = new OpenApiContract();
let codes = 0;

const FULL_STORE = {
  store_code: 'BRN-01',
  name: 'Brno Station',
  store_address: {
    address1: 'Nádražní',
    address2: '1',
    address3: '',
    address4: '',
    address5: '',
    address6: '',
    address7: '',
    zip: '60200',
    city: 'Brno',
    country_code: 'cz',
  },
  contact_email: 'brno@example.com',
  manager_name: 'Karel Malý',
  phone_number: '420541000000',
  partner_id: 'de00000000000000000000a001',
  system_id: 2375303497,
  gps_coordinates: { gps_longitude: 16.6127, gps_latitude: 49.1907 },
  url_address: 'https://example.com/brno',
  opening: [
    {
      day_id: 'MON',
      time_intervals: [
        { from: '08:00:00', to: '12:00' },
        { from: '13:00', to: '18:00:00' },
      ],
    },
    { day_id: 'SUN', time_intervals: [] },
  ],
  image_urls: ['https://example.com/brno.jpg'],
  visibility_for_customer: 0,
  short_description: 'By the station',
  description: 'Our store by the main station',
  registration_id: 123,
};

function store(overrides: Record<string, unknown> = {}) {
  codes += 1;
  return { store_code: `T-${codes}`, name: `Test store ${codes}`, partner_id: 'partner-1', system_id: `sys-${codes}`, ...overrides };
}

async function create(body: Record<string, unknown> = store()): Promise<string> {
  const response = await call('POST', `${enterprise}/stores`, { headers: pos, body: { store: body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.store_id as string;
}

async function addProperty(storeId: string, propertyId: string, value: unknown): Promise<string> {
  const response = await call('POST', `${enterprise}/stores/${storeId}/property-records`, {
    headers: pos,
    body: { property_record: { property_id: propertyId, property_value: value } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.property_record_id as string;
}

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  enterprise = server.api('enterprise');
});
afterAll(() => server.close());

describe('POST /stores', () => {
  it('creates a store and reads it back in the Store shape', async () => {
    const id = await create(FULL_STORE);
    expect(id).toMatch(/^[0-9a-f]{26}$/);
    const read = await call('GET', `${enterprise}/stores/${id}`, { headers: pos });
    expect(read.status).toBe(200);
    expect(contract.check('get', '/stores/{store_id}', 200, read.body)).toEqual([]);
    expect(read.body.data).toEqual({
      store_id: id,
      store_code: 'BRN-01',
      name: 'Brno Station',
      store_address: {
        address1: 'Nádražní',
        address2: '1',
        address3: '',
        address4: '',
        address5: '',
        address6: '',
        address7: '',
        zip: '60200',
        city: 'Brno',
        country_code: 'cz',
      },
      contact_email: 'brno@example.com',
      manager_name: 'Karel Malý',
      phone_number: '420541000000',
      partner_id: 'de00000000000000000000a001',
      system_id: '2375303497',
      gps_coordinates: { gps_longitude: 16.6127, gps_latitude: 49.1907 },
      url_address: 'https://example.com/brno',
      opening: [
        {
          day_id: 'MON',
          time_intervals: [
            { from: '08:00:00', to: '12:00:00' },
            { from: '13:00:00', to: '18:00:00' },
          ],
        },
        { day_id: 'SUN', time_intervals: [] },
      ],
      image_urls: ['https://example.com/brno.jpg'],
      visibility_for_customer: 0,
      short_description: 'By the station',
      description: 'Our store by the main station',
      registration_id: '123',
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      state: 1,
    });
  });

  it('answers null for fields not given, visible to customers by default', async () => {
    const id = await create(store());
    const read = await call('GET', `${enterprise}/stores/${id}`, { headers: pos });
    expect(read.body.data).toMatchObject({
      store_address: null,
      contact_email: null,
      gps_coordinates: null,
      opening: [],
      image_urls: [],
      visibility_for_customer: 1,
      registration_id: null,
    });
  });

  it('queues one command carrying one row change', async () => {
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    await create();
    expect(queuedChangesSince(server, seq)).toEqual({ stores: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['stores.create']);
  });

  it('names each invalid field with its reason', async () => {
    const response = await call('POST', `${enterprise}/stores`, {
      headers: pos,
      body: {
        store: {
          name: '',
          partner_id: 'p',
          system_id: 's',
          store_address: { country_code: 'CZE' },
          opening: [{ day_id: 'MONDAY', time_intervals: [] }],
          gps_coordinates: { gps_longitude: 200, gps_latitude: 1 },
          visibility_for_customer: 2,
          contact_email: 'not-an-email',
        },
      },
    });
    const error = expectError(response, 400, 'invalid_params_exception');
    const reasons = Object.fromEntries(error.error_data.invalid_params.map((p: any) => [p.name, p.reason]));
    expect(reasons).toEqual({
      'store.store_code': 'required',
      'store.name': 'empty',
      'store.store_address.country_code': 'invalid_value_format',
      'store.opening.0.day_id': 'not_allowed_value',
      'store.gps_coordinates.gps_longitude': 'not_allowed_value',
      'store.visibility_for_customer': 'not_allowed_value',
      'store.contact_email': 'invalid_value_format',
    });
  });

  it('refuses a body without a store and changes nothing', async () => {
    const seq = lastOutboxSeq(server);
    const response = await call('POST', `${enterprise}/stores`, { headers: pos, body: {} });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: 'store', reason: 'required' });
    expect(queuedChangesSince(server, seq)).toEqual({});
  });

  it('is not offered in the customer interface', async () => {
    const response = await call('POST', `${server.api('customer')}/stores`, { headers: token, body: { store: store() } });
    expectError(response, 403, 'interface_not_allowed_exception');
  });
});

describe('PUT /stores/{store_id}', () => {
  it('changes the fields given, keeps those left out, and answers 204, queuing one row change', async () => {
    const id = await create(FULL_STORE);
    const seq = lastOutboxSeq(server);
    const response = await call('PUT', `${enterprise}/stores/${id}`, {
      headers: pos,
      body: {
        store: {
          store_code: 'BRN-02',
          name: 'Brno Main Station',
          partner_id: 'partner-2',
          system_id: 'sys-x',
          manager_name: null,
          visibility_for_customer: 1,
        },
      },
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(queuedChangesSince(server, seq)).toEqual({ stores: 1 });
    const read = (await call('GET', `${enterprise}/stores/${id}`, { headers: pos })).body.data;
    expect(read).toMatchObject({
      store_code: 'BRN-02',
      name: 'Brno Main Station',
      partner_id: 'partner-2',
      system_id: 'sys-x',
      manager_name: null,
      visibility_for_customer: 1,
      contact_email: 'brno@example.com',
      gps_coordinates: FULL_STORE.gps_coordinates,
    });
    expect(read.store_address.city).toBe('Brno');
  });

  it('answers 404 for an unknown store', async () => {
    const response = await call('PUT', `${enterprise}/stores/ffffffffffffffffffffffffff`, { headers: pos, body: { store: store() } });
    expect(expectError(response, 404, 'not_found_exception').error_data).toEqual({
      resource_name: 'stores',
      resource_id: 'ffffffffffffffffffffffffff',
    });
  });

  it('is not offered in the customer interface', async () => {
    const response = await call('PUT', `${server.api('customer')}/stores/${DEMO_IDS.storeCentral}`, { headers: token, body: { store: store() } });
    expectError(response, 403, 'interface_not_allowed_exception');
  });
});

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('GET /stores in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });

  it('counts every store in total_items beyond one page', async () => {
    await create();
    await create();
    const all = await get('/stores?count=1000');
    const total = all.body.data.stores.length;
    expect(total).toBeGreaterThan(3);
    const page = await get('/stores?count=2');
    expect(page.status).toBe(200);
    expect(page.body.data.stores).toHaveLength(2);
    expect(page.body.data.total_items).toBe(total);
    expect(contract.check('get', '/stores', 200, { data: { stores: [], total_items: total } })).toEqual([]);
  });

  it('answers [] with the total past the end', async () => {
    const total = (await get('/stores')).body.data.total_items;
    expect((await get(`/stores?offset=${total}`)).body.data).toEqual({ stores: [], total_items: total });
  });

  it('sorts by name in both directions', async () => {
    const names = (direction: string) =>
      get(`/stores?sort_field=name&sort_direction=${direction}&count=1000`).then((r) => r.body.data.stores.map((s: any) => s.name));
    const ascending = await names('ASC');
    expect(ascending).toEqual([...ascending].sort());
    expect(await names('DESC')).toEqual([...ascending].reverse());
  });

  it('refuses an unknown sort field', async () => {
    const response = await get('/stores?sort_field=colour');
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'sort_field',
      reason: 'not_allowed_value',
    });
  });

  it('filters by visible_for_customer', async () => {
    const hidden = await create(store({ visibility_for_customer: 0 }));
    const invisible = (await get('/stores?visible_for_customer=0&count=1000')).body.data;
    const visible = (await get('/stores?visible_for_customer=1&count=1000')).body.data;
    const all = (await get('/stores?count=1000')).body.data;
    expect(invisible.stores.map((s: any) => s.store_id)).toContain(hidden);
    expect(invisible.stores.every((s: any) => s.visibility_for_customer === 0)).toBe(true);
    expect(visible.stores.every((s: any) => s.visibility_for_customer === 1)).toBe(true);
    expect(visible.stores.map((s: any) => s.store_id)).toContain(DEMO_IDS.storeCentral);
    expect(invisible.total_items + visible.total_items).toBe(all.total_items);
    expect(invisible.total_items).toBe(invisible.stores.length);
  });

  it.each([
    ['2', 'not_allowed_value'],
    ['yes', 'invalid_value_format'],
  ])('refuses visible_for_customer=%s with %s', async (value, reason) => {
    const response = await get(`/stores?visible_for_customer=${value}`);
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'visible_for_customer',
      reason,
    });
  });

  it('filters by a property value, single or one of several, only when both parameters are given', async () => {
    const wifi = await create();
    const parking = await create();
    await addProperty(wifi, `services_${iface}`, ['wifi', 'coffee']);
    await addProperty(parking, `services_${iface}`, 'parking');
    await addProperty(parking, `floor_${iface}`, 2);
    const ids = async (query: string) => (await get(`/stores?count=1000&${query}`)).body.data.stores.map((s: any) => s.store_id);
    expect(await ids(`property_id=services_${iface}&property_value=wifi`)).toEqual([wifi]);
    expect(await ids(`property_id=services_${iface}&property_value=coffee`)).toEqual([wifi]);
    expect(await ids(`property_id=services_${iface}&property_value=parking`)).toEqual([parking]);
    expect(await ids(`property_id=floor_${iface}&property_value=2`)).toEqual([parking]);
    expect(await ids(`property_id=services_${iface}&property_value=sauna`)).toEqual([]);
    const total = (await get('/stores')).body.data.total_items;
    expect((await get(`/stores?property_id=services_${iface}`)).body.data.total_items).toBe(total);
    expect((await get('/stores?property_value=wifi')).body.data.total_items).toBe(total);
  });

  it('reads the demo store and answers 404 for an unknown one', async () => {
    const read = await get(`/stores/${DEMO_IDS.storeCentral}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ store_id: DEMO_IDS.storeCentral, store_code: 'PRG-01', name: 'Prague Central' });
    expect(read.body.data.store_address).toMatchObject({ address1: 'Na Příkopě 1', city: 'Prague', country_code: 'cz' });
    expectError(await get('/stores/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
  });
});

listChecks('GET /stores (enterprise)', () => ({ url: `${server.api('enterprise')}/stores`, headers: pos, plural: 'stores', idField: 'store_id' }), [
  ['visible_for_customer=2', 'visible_for_customer'],
]);

listChecks('GET /stores (customer)', () => ({ url: `${server.api('customer')}/stores`, headers: token, plural: 'stores', idField: 'store_id' }));
