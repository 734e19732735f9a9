import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { insertProduct } from '../../support/catalog-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, TestClock, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';
import { lastOutboxSeq, outboxKindsSince, queuedChangesSince } from '../../support/outbox.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
let enterprise: string;
const contract = new OpenApiContract();
const UNKNOWN = 'ffffffffffffffffffffffffff';
/** Every list below is scoped to the campaign products made here by their customer types. */
const OURS = 'type_id=members,vip';
let campaign: string;
let tonic: string;
let lemonade: string;
let water: string;
const ids: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };

function campaignProduct(overrides: Record<string, unknown> = {}) {
  return {
    product_id: tonic,
    currency_id: 'CZK',
    campaign_id: campaign,
    value: 10,
    value_type_id: 1,
    valid_from: '2026-06-01 00:00:00',
    valid_to: '2026-06-30 23:59:59',
    display_in: ['web', 'cash_desk'],
    type_id: 'members',
    presentation_data: {
      name: 'Tonic deal',
      subtitle: 'Only this month',
      note: null,
      description: 'Ten percent off',
      image_url: 'https://example.com/t.jpg',
    },
    ...overrides,
  };
}

async function create(body: Record<string, unknown>): Promise<string> {
  const response = await call('POST', `${enterprise}/campaign-products`, { headers: pos, body: { campaign_product: body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.campaign_product_id as string;
}

function addStore(campaignProductId: string, record: Record<string, unknown>) {
  return call('POST', `${enterprise}/campaign-products/${campaignProductId}/campaign-product-store-records`, {
    headers: pos,
    body: { campaign_product_store_record: record },
  });
}

beforeAll(async () => {
  server = await startTestServer({ clock: new TestClock(Date.parse('2026-06-15T12:00:00Z')) });
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  enterprise = server.api('enterprise');
  tonic = insertProduct(server, { name: 'Vodka tonic', code: 'VT' });
  lemonade = insertProduct(server, { name: 'Lemonade', code: 'LEM' });
  water = insertProduct(server, { name: 'Still water', code: 'TW' });
  campaign = (await call('POST', `${enterprise}/campaigns`, { headers: pos, body: { campaign: { name: 'Summer' } } })).body.data.campaign_id;
  ids.A = await create(campaignProduct());
  ids.B = await create(
    campaignProduct({
      product_id: lemonade,
      value: '29.90',
      value_type_id: 2,
      valid_from: '2026-07-01 00:00:00',
      valid_to: '2026-07-31 23:59:59',
      display_in: ['api'],
      presentation_data: { name: 'Summer lemonade' },
    }),
  );
  ids.C = await create(
    campaignProduct({
      value: 25,
      valid_from: '2026-05-01T00:00:00+00:00',
      valid_to: '2026-05-31T23:59:59Z',
      display_in: ['web'],
      type_id: 'vip',
      presentation_data: { name: 'Gin night' },
    }),
  );
  ids.D = await create(
    campaignProduct({
      product_id: water,
      value: 9,
      value_type_id: 2,
      valid_from: '2026-06-10 00:00:00',
      valid_to: '2026-06-20 23:59:59',
      display_in: ['cash desk'],
      type_id: 'vip',
      presentation_data: { name: 'Water' },
    }),
  );
  expect((await addStore(ids.D, { store_id: DEMO_IDS.storeAirport })).status).toBe(201);
  await create(
    campaignProduct({
      type_id: 'full',
      presentation_data: { name: 'Full', subtitle: 's', note: 'n', description: 'd', image_url: 'https://example.com/f.jpg' },
    }),
  );
});
afterAll(() => server.close());

describe('POST /campaign-products', () => {
  it('creates a campaign product that reads back in the CampaignProduct shape, display places normalised', async () => {
    const read = await call('GET', `${enterprise}/campaign-products/${ids.A}`, { headers: pos });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      campaign_product_id: ids.A,
      product_id: tonic,
      currency_id: 'CZK',
      campaign_id: campaign,
      value: 10,
      value_type_id: 1,
      valid_from: '2026-06-01 00:00:00',
      valid_to: '2026-06-30 23:59:59',
      display_in: ['web', 'cash desk'],
      type_id: 'members',
      presentation_data: {
        name: 'Tonic deal',
        subtitle: 'Only this month',
        note: null,
        description: 'Ten percent off',
        image_url: 'https://example.com/t.jpg',
      },
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      state: 1,
    });
  });

  it('keeps money exact from a numeric string; missing subtitle and note are null, other texts empty', async () => {
    const read = (await call('GET', `${enterprise}/campaign-products/${ids.B}`, { headers: pos })).body.data;
    expect(read.value).toBe(29.9);
    expect(read.presentation_data).toEqual({ name: 'Summer lemonade', subtitle: null, note: null, description: '', image_url: '' });
  });

  it('answers 201 with campaign_product_id, queues one command carrying one row change', async () => {
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    const body = { campaign_product: campaignProduct({ type_id: 'other', display_in: ['cash_desk', 'cash desk', 'api'] }) };
    const response = await call('POST', `${enterprise}/campaign-products`, { headers: pos, body });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.data)).toEqual(['campaign_product_id']);
    expect(contract.check('post', '/campaign-products', 201, response.body)).toEqual([]);
    expect(queuedChangesSince(server, seq)).toEqual({ campaign_products: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['campaign-products.create']);
    const read = await call('GET', `${enterprise}/campaign-products/${response.body.data.campaign_product_id}`, { headers: pos });
    expect(read.body.data.display_in).toEqual(['cash desk', 'api']);
  });

  it('requires the fields the OpenAPI file requires', async () => {
    const response = await call('POST', `${enterprise}/campaign-products`, { headers: pos, body: { campaign_product: { presentation_data: {} } } });
    const names = expectError(response, 400, 'invalid_params_exception').error_data.invalid_params.map((p: any) => [p.name, p.reason]);
    expect(names).toEqual([
      ['campaign_product.product_id', 'required'],
      ['campaign_product.currency_id', 'required'],
      ['campaign_product.campaign_id', 'required'],
      ['campaign_product.value', 'required'],
      ['campaign_product.value_type_id', 'required'],
      ['campaign_product.valid_from', 'required'],
      ['campaign_product.valid_to', 'required'],
      ['campaign_product.type_id', 'required'],
      ['campaign_product.presentation_data.name', 'required'],
    ]);
  });

  it.each([
    [{ value_type_id: 3 }, 'campaign_product.value_type_id', 'not_allowed_value'],
    [{ display_in: ['shop'] }, 'campaign_product.display_in.0', 'not_allowed_value'],
    [{ value: 'ten' }, 'campaign_product.value', 'invalid_value_format'],
    [{ value: 150 }, 'campaign_product.value', 'not_allowed_value'],
    [{ value: -1, value_type_id: 2 }, 'campaign_product.value', 'not_allowed_value'],
    [{ valid_from: '2026-13-01 00:00:00' }, 'campaign_product.valid_from', 'invalid_value_format'],
    [{ valid_to: '2026-05-01 00:00:00' }, 'campaign_product.valid_to', 'not_allowed_value'],
    [{ product_id: UNKNOWN }, 'campaign_product.product_id', 'not_found'],
    [{ campaign_id: UNKNOWN }, 'campaign_product.campaign_id', 'not_found'],
  ])('refuses %j: %s %s, changing nothing', async (overrides, name, reason) => {
    const seq = lastOutboxSeq(server);
    const response = await call('POST', `${enterprise}/campaign-products`, { headers: pos, body: { campaign_product: campaignProduct(overrides) } });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([expect.objectContaining({ name, reason })]);
    expect(queuedChangesSince(server, seq)).toEqual({});
  });

  it('is not offered in the customer interface', async () => {
    const response = await call('POST', `${server.api('customer')}/campaign-products`, {
      headers: token,
      body: { campaign_product: campaignProduct() },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
  });
});

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('GET /campaign-products in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });
  const found = async (query: string) => {
    const response = await get(`/campaign-products?${OURS}&${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.total_items).toBe(response.body.data.campaign_products.length);
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    return response.body.data.campaign_products.map((c: any) => names[c.campaign_product_id]);
  };

  it('answers in the CampaignProduct shape of the 2021 file when every text is given', async () => {
    const list = await get('/campaign-products?type_id=full');
    expect(list.body.data.total_items).toBe(1);
    expect(contract.check('get', '/campaign-products', 200, list.body)).toEqual([]);
    const read = await get(`/campaign-products/${list.body.data.campaign_products[0].campaign_product_id}`);
    expect(contract.check('get', '/campaign-products/{campaign_product_id}', 200, read.body)).toEqual([]);
  });

  it('counts every match in total_items beyond one page and answers [] past the end', async () => {
    const page = await get(`/campaign-products?${OURS}&count=2`);
    expect(page.status).toBe(200);
    expect(Object.keys(page.body.data)).toEqual(['campaign_products', 'total_items']);
    expect(page.body.data.campaign_products).toHaveLength(2);
    expect(page.body.data.total_items).toBe(4);
    expect((await get(`/campaign-products?${OURS}&offset=4`)).body.data).toEqual({ campaign_products: [], total_items: 4 });
    expect((await get('/campaign-products')).body.data.total_items).toBeGreaterThan(4);
  });

  it('filters by customer type in every array encoding', async () => {
    expect(await found('')).toEqual(['A', 'B', 'C', 'D']);
    expect((await get('/campaign-products?type_id=members')).body.data.campaign_products.map((c: any) => c.campaign_product_id)).toEqual([
      ids.A,
      ids.B,
    ]);
    for (const query of ['type_id[]=vip&type_id[]=members', 'type_id[0]=vip&type_id[1]=members', 'type_id=vip&type_id=members']) {
      expect((await get(`/campaign-products?${query}`)).body.data.total_items).toBe(4);
    }
  });

  it("filters by part of the campaign product's or its product's name", async () => {
    expect(await found('name=TONIC')).toEqual(['A', 'C']);
    expect(await found('name=night')).toEqual(['C']);
    expect(await found('name=lemonade')).toEqual(['B']);
  });

  it("filters by the product's code", async () => {
    expect(await found('code=TW')).toEqual(['D']);
    expect(await found('code=VT')).toEqual(['A', 'C']);
  });

  it('filters by place of display, either spelling of the cash desk', async () => {
    expect(await found('display_in=web')).toEqual(['A', 'C']);
    expect(await found('display_in=cash%20desk')).toEqual(['A', 'D']);
    expect(await found('display_in=cash+desk')).toEqual(['A', 'D']);
    expect(await found('display_in=cash_desk')).toEqual(['A', 'D']);
    expect(await found('display_in=api')).toEqual(['B']);
  });

  it('filters by store: records limit a campaign product to their stores, none means every store', async () => {
    expect(await found(`store_id=${DEMO_IDS.storeAirport}`)).toEqual(['A', 'B', 'C', 'D']);
    expect(await found(`store_id=${DEMO_IDS.storeCentral}`)).toEqual(['A', 'B', 'C']);
  });

  it('filters by value type', async () => {
    expect(await found('value_type_id=2')).toEqual(['B', 'D']);
    expect(await found('value_type_id=1')).toEqual(['A', 'C']);
  });

  it('filters by validity now', async () => {
    expect(await found('is_valid=true')).toEqual(['A', 'D']);
    expect(await found('is_valid=false')).toEqual(['B', 'C']);
  });

  it('filters by a validity window: starting at or after valid_from, ending at or before valid_to', async () => {
    expect(await found('valid_from=2026-06-01%2000:00:00')).toEqual(['A', 'B', 'D']);
    expect(await found('valid_to=2026-06-30%2023:59:59')).toEqual(['A', 'C', 'D']);
    expect(await found('valid_from=2026-06-01%2000:00:00&valid_to=2026-06-30%2023:59:59')).toEqual(['A', 'D']);
  });

  it('sorts by an indexed field in both directions; value, which no index orders, answers 400 not_allowed_value', async () => {
    const up = await found('sort_field=valid_to');
    expect(await found('sort_field=valid_to&sort_direction=DESC')).toEqual([...up].reverse());
    const response = await get('/campaign-products?sort_field=value');
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'sort_field',
      reason: 'not_allowed_value',
    });
  });

  it.each([
    ['value_type_id=3', 'value_type_id', 'not_allowed_value'],
    ['value_type_id=x', 'value_type_id', 'invalid_value_format'],
    ['display_in=shop', 'display_in', 'not_allowed_value'],
    ['is_valid=maybe', 'is_valid', 'invalid_value_format'],
    ['valid_from=yesterday', 'valid_from', 'invalid_value_format'],
    ['sort_field=colour', 'sort_field', 'not_allowed_value'],
  ])('refuses %s', async (query, name, reason) => {
    const response = await get(`/campaign-products?${query}`);
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name, reason });
  });

  it('reads one campaign product and answers 404 for an unknown one', async () => {
    const read = await get(`/campaign-products/${ids.D}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ campaign_product_id: ids.D, display_in: ['cash desk'], value: 9, value_type_id: 2 });
    const missing = await get(`/campaign-products/${UNKNOWN}`);
    expect(expectError(missing, 404, 'not_found_exception').error_data).toEqual({ resource_name: 'campaign-products', resource_id: UNKNOWN });
  });
});

describe('campaign product store records', () => {
  const recordsPath = (id: string) => `/campaign-products/${id}/campaign-product-store-records`;

  it('adds a store with 201 and one queued command carrying one row change', async () => {
    const id = await create(campaignProduct({ type_id: 'stores-test' }));
    const seq = lastOutboxSeq(server);
    const outbox = lastOutboxSeq(server);
    const response = await addStore(id, { store_id: DEMO_IDS.storeCentral, campaign_product_id: id });
    expect(response.status).toBe(201);
    expect(contract.check('post', '/campaign-products/{campaign_product_id}/campaign-product-store-records', 201, response.body)).toEqual([]);
    expect(response.body.data.campaign_product_store_record_id).toMatch(/^[0-9a-f]{26}$/);
    expect(queuedChangesSince(server, seq)).toEqual({ campaign_product_store_records: 1 });
    expect(outboxKindsSince(server, outbox)).toEqual(['campaign-product-store-records.create']);
  });

  it('refuses an unknown store, a store added twice and another campaign product in the body', async () => {
    const id = await create(campaignProduct({ type_id: 'stores-test' }));
    await addStore(id, { store_id: DEMO_IDS.storeCentral });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ store_id: UNKNOWN }, 'campaign_product_store_record.store_id', 'not_found'],
      [{ store_id: DEMO_IDS.storeCentral }, 'campaign_product_store_record.store_id', 'relation_already_exists'],
      [{ store_id: DEMO_IDS.storeAirport, campaign_product_id: ids.A }, 'campaign_product_store_record.campaign_product_id', 'not_allowed_value'],
      [{}, 'campaign_product_store_record.store_id', 'required'],
    ];
    for (const [record, name, reason] of cases) {
      const response = await addStore(id, record);
      expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name, reason });
    }
  });

  it('answers 404 for an unknown campaign product', async () => {
    expectError(await addStore(UNKNOWN, { store_id: DEMO_IDS.storeCentral }), 404, 'not_found_exception');
    expectError(await call('GET', `${enterprise}${recordsPath(UNKNOWN)}`, { headers: pos }), 404, 'not_found_exception');
  });

  it('is added only in the enterprise interface', async () => {
    const response = await call('POST', `${server.api('customer')}${recordsPath(ids.A)}`, {
      headers: token,
      body: { campaign_product_store_record: { store_id: DEMO_IDS.storeCentral } },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
  });

  it.each([
    ['enterprise', () => pos],
    ['customer', () => token],
  ] as const)('lists, pages and sorts the records in the %s interface', async (iface, headers) => {
    const id = await create(campaignProduct({ type_id: 'stores-test' }));
    const first = (await addStore(id, { store_id: DEMO_IDS.storeCentral })).body.data.campaign_product_store_record_id;
    const second = (await addStore(id, { store_id: DEMO_IDS.storeAirport })).body.data.campaign_product_store_record_id;
    const get = (query: string) => call('GET', `${server.api(iface)}${recordsPath(id)}?${query}`, { headers: headers() });
    const all = await get('');
    expect(all.status).toBe(200);
    expect(contract.check('get', '/campaign-products/{campaign_product_id}/campaign-product-store-records', 200, all.body)).toEqual([]);
    expect(all.body.data).toEqual({
      campaign_product_store_records: [
        { campaign_product_store_record_id: first, store_id: DEMO_IDS.storeCentral, campaign_product_id: id },
        { campaign_product_store_record_id: second, store_id: DEMO_IDS.storeAirport, campaign_product_id: id },
      ],
      total_items: 2,
    });
    expect((await get('count=1')).body.data.total_items).toBe(2);
    expect((await get('sort_direction=DESC')).body.data.campaign_product_store_records[0].campaign_product_store_record_id).toBe(second);
    expect((await get('offset=2')).body.data).toEqual({ campaign_product_store_records: [], total_items: 2 });
  });
});

listChecks(
  'GET /campaign-products (enterprise)',
  () => ({ url: `${server.api('enterprise')}/campaign-products`, headers: pos, plural: 'campaign_products', idField: 'campaign_product_id' }),
  [
    ['value_type_id=3', 'value_type_id'],
    ['is_valid=maybe', 'is_valid'],
    ['valid_from=soon', 'valid_from'],
  ],
);

listChecks('GET /campaign-products (customer)', () => ({
  url: `${server.api('customer')}/campaign-products`,
  headers: token,
  plural: 'campaign_products',
  idField: 'campaign_product_id',
}));
