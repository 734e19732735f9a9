import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../../support/catalog-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
const contract = new OpenApiContract();
/** The demo's Coffee group and Roastery brand. */
const COFFEE = `de${(0x201).toString(16).padStart(24, '0')}`;
const ROASTERY = `de${(0x211).toString(16).padStart(24, '0')}`;
const ESPRESSO_BEANS = `de${(0x301).toString(16).padStart(24, '0')}`;
const DEMO_PRODUCTS = 6;
let tonic: string;
let lemonade: string;
let water: string;

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  tonic = insertProduct(server, {
    name: 'Vodka tonic',
    code: 'VT-649',
    externalIds: { GLOBAL: ['668'], EAN: ['4006381333931', '4006381333948'] },
    product_group_id: COFFEE,
    product_brand_id: ROASTERY,
    additional_properties: [
      { property_id: 'alcohol', property_name: 'Contains alcohol', property_value: true, last_change: '2026-01-15T10:00:00.000Z' },
    ],
  });
  lemonade = insertProduct(server, { name: 'Lemonade', code: 'LEM', externalIds: { EAN: ['5000112637922'] }, product_brand_id: ROASTERY });
  water = insertProduct(server, { name: 'Tonic water', code: 'TW', externalIds: { GLOBAL: ['669'] } });
});
afterAll(() => server.close());

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('products in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });
  const ids = async (query: string) => (await get(`/products?count=1000&${query}`)).body.data.products.map((p: any) => p.product_id);

  it('reads a product in the Product shape with its GLOBAL external id', async () => {
    const read = await get(`/products/${tonic}`);
    expect(read.status).toBe(200);
    expect(contract.check('get', '/products/{product_id}', 200, read.body)).toEqual([]);
    expect(read.body.data).toEqual({
      product_id: tonic,
      name: 'Vodka tonic',
      code: 'VT-649',
      external_id: '668',
      product_group_id: COFFEE,
      product_brand_id: ROASTERY,
      additional_properties: [
        {
          property_record_id: `alcohol:${tonic}`,
          property_id: 'alcohol',
          property_name: 'Contains alcohol',
          property_value: true,
          last_change: '2026-01-15 10:00:00.000000',
        },
      ],
      last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
      state: 1,
    });
  });

  it('shows the external id of the list named by external_type_code, null when the product has none there', async () => {
    expect((await get(`/products/${tonic}?external_type_code=EAN`)).body.data.external_id).toBe('4006381333931');
    expect((await get(`/products/${lemonade}`)).body.data.external_id).toBeNull();
    const listed = (await get('/products?count=1000&external_type_code=EAN')).body.data.products;
    const byId = Object.fromEntries(listed.map((p: any) => [p.product_id, p.external_id]));
    expect(byId[tonic]).toBe('4006381333931');
    expect(byId[lemonade]).toBe('5000112637922');
    expect(byId[water]).toBeNull();
  });

  it('counts every product in total_items beyond one page', async () => {
    // The demo products come last by id and carry every field the 2021 schema types as a string.
    const page = await get('/products?count=2&sort_direction=DESC');
    expect(page.status).toBe(200);
    expect(contract.check('get', '/products', 200, page.body)).toEqual([]);
    expect(page.body.data.products).toHaveLength(2);
    expect(page.body.data.total_items).toBe(DEMO_PRODUCTS + 3);
    expect((await get(`/products?offset=${DEMO_PRODUCTS + 3}`)).body.data).toEqual({ products: [], total_items: DEMO_PRODUCTS + 3 });
  });

  it('filters by part of the name, case-insensitively', async () => {
    expect(await ids('name=TONIC')).toEqual([tonic, water]);
    const response = await get('/products?name=tonic&count=1');
    expect(response.body.data.total_items).toBe(2);
  });

  it('filters by code', async () => {
    expect(await ids('code=LEM')).toEqual([lemonade]);
    expect(await ids('code=ESP-1KG')).toEqual([ESPRESSO_BEANS]);
    expect(await ids('code=NONE')).toEqual([]);
  });

  it('matches external_id in the GLOBAL list unless external_type_code names another', async () => {
    expect(await ids('external_id=668')).toEqual([tonic]);
    expect(await ids('external_id=4006381333948')).toEqual([]);
    expect(await ids('external_id=4006381333948&external_type_code=EAN')).toEqual([tonic]);
    expect(await ids('external_id=668&external_type_code=EAN')).toEqual([]);
    expect(await ids(`external_id=859000${0x301}`)).toEqual([ESPRESSO_BEANS]);
  });

  it('sorts by name in both directions', async () => {
    const names = (direction: string) =>
      get(`/products?sort_field=name&sort_direction=${direction}`).then((r) => r.body.data.products.map((p: any) => p.name));
    const ascending = await names('ASC');
    expect(ascending).toEqual([...ascending].sort());
    expect(ascending).toHaveLength(DEMO_PRODUCTS + 3);
    expect(await names('DESC')).toEqual([...ascending].reverse());
  });

  it('refuses an unknown sort field and an empty filter', async () => {
    expect(expectError(await get('/products?sort_field=external_id'), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'sort_field',
      reason: 'not_allowed_value',
    });
    expect(expectError(await get('/products?code='), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'code',
      reason: 'empty',
    });
  });

  it('answers 404 for an unknown product', async () => {
    const response = await get('/products/ffffffffffffffffffffffffff');
    expect(expectError(response, 404, 'not_found_exception').error_data).toEqual({
      resource_name: 'products',
      resource_id: 'ffffffffffffffffffffffffff',
    });
  });
});

listChecks('GET /products (enterprise)', () => ({
  url: `${server.api('enterprise')}/products`,
  headers: pos,
  plural: 'products',
  idField: 'product_id',
}));

listChecks('GET /products (customer)', () => ({
  url: `${server.api('customer')}/products`,
  headers: token,
  plural: 'products',
  idField: 'product_id',
}));
