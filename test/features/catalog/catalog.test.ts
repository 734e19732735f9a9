import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { insertProductBrand, insertProductGroup, insertPurchaseItemType } from '../../support/catalog-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { OpenApiContract } from '../../support/openapi.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
const contract = new OpenApiContract();
const UNKNOWN = 'ffffffffffffffffffffffffff';
let drinks: string;
let spirits: string;
let airportSnacks: string;
let brand: string;
let voucherType: string;

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  drinks = insertProductGroup(server, { name: 'Drinks', code: 'DRK', external_id: '53' });
  spirits = insertProductGroup(server, { name: 'Spirits', parent_id: drinks, code: 'SPR', external_id: '54', store_id: DEMO_IDS.storeCentral });
  airportSnacks = insertProductGroup(server, { name: 'Airport snacks', code: 'SNK', external_id: '55', store_id: DEMO_IDS.storeAirport });
  brand = insertProductBrand(server, 'The best brand', 'a5d332');
  insertProductBrand(server, 'Best Bakes', 'b1');
  voucherType = insertPurchaseItemType(server, 'Voucher');
});
afterAll(() => server.close());

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('catalogue lists in the %s interface', (iface, headers) => {
  const get = (path: string) => call('GET', `${server.api(iface)}${path}`, { headers: headers() });

  describe('product groups', () => {
    const ids = async (query: string) => (await get(`/product-groups?${query}`)).body.data.product_groups.map((g: any) => g.product_group_id);

    it('reads a group in the ProductGroup shape', async () => {
      const read = await get(`/product-groups/${spirits}`);
      expect(read.status).toBe(200);
      expect(contract.check('get', '/product-groups/{product_group_id}', 200, read.body)).toEqual([]);
      expect(read.body.data).toEqual({
        product_group_id: spirits,
        name: 'Spirits',
        parent_product_group_id: drinks,
        code: 'SPR',
        external_id: '54',
        store_id: DEMO_IDS.storeCentral,
        last_change: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
        state: 1,
      });
    });

    it('counts every group in total_items beyond one page, and answers [] past the end', async () => {
      const page = await get('/product-groups?count=2');
      expect(page.body.data.product_groups).toHaveLength(2);
      expect(page.body.data.total_items).toBe(5);
      expect((await get('/product-groups?offset=5')).body.data).toEqual({ product_groups: [], total_items: 5 });
    });

    it('filters by part of the name, by store and by code', async () => {
      expect(await ids('name=s')).toEqual([drinks, spirits, airportSnacks]);
      expect(await ids('name=SPIR')).toEqual([spirits]);
      expect(await ids(`store_id=${DEMO_IDS.storeAirport}`)).toEqual([airportSnacks]);
      expect(await ids('code=DRK')).toEqual([drinks]);
      expect(await ids('code=DRK&store_id=' + DEMO_IDS.storeAirport)).toEqual([]);
    });

    it('sorts by name in both directions and refuses an unknown sort field', async () => {
      const names = (direction: string) =>
        get(`/product-groups?sort_field=name&sort_direction=${direction}`).then((r) => r.body.data.product_groups.map((g: any) => g.name));
      expect(await names('ASC')).toEqual(['Airport snacks', 'Bakery', 'Coffee', 'Drinks', 'Spirits']);
      expect(await names('DESC')).toEqual(['Spirits', 'Drinks', 'Coffee', 'Bakery', 'Airport snacks']);
      expectError(await get('/product-groups?sort_field=colour'), 400, 'invalid_params_exception');
    });

    it('answers 404 for an unknown group', async () => {
      expect(expectError(await get(`/product-groups/${UNKNOWN}`), 404, 'not_found_exception').error_data.resource_name).toBe('product-groups');
    });
  });

  describe('product brands', () => {
    it('reads a brand in the ProductBrand shape', async () => {
      const read = await get(`/product-brands/${brand}`);
      expect(read.status).toBe(200);
      expect(contract.check('get', '/product-brands/{product_brand_id}', 200, read.body)).toEqual([]);
      expect(read.body.data).toEqual({ product_brand_id: brand, name: 'The best brand', external_id: 'a5d332' });
    });

    it('counts, pages, filters by part of the name and sorts both ways', async () => {
      const page = await get('/product-brands?count=1');
      expect(page.body.data.product_brands).toHaveLength(1);
      expect(page.body.data.total_items).toBe(4);
      expect((await get('/product-brands?offset=4')).body.data).toEqual({ product_brands: [], total_items: 4 });
      expect((await get('/product-brands?name=best')).body.data.product_brands.map((b: any) => b.name)).toEqual(['The best brand', 'Best Bakes']);
      const names = (direction: string) =>
        get(`/product-brands?sort_field=name&sort_direction=${direction}`).then((r) => r.body.data.product_brands.map((b: any) => b.name));
      expect(await names('ASC')).toEqual(['Best Bakes', 'Home Bakery', 'Roastery', 'The best brand']);
      expect(await names('DESC')).toEqual(['The best brand', 'Roastery', 'Home Bakery', 'Best Bakes']);
    });

    it('answers 404 for an unknown brand', async () => {
      expect(expectError(await get(`/product-brands/${UNKNOWN}`), 404, 'not_found_exception').error_data.resource_name).toBe('product-brands');
    });
  });

  describe('purchase item types', () => {
    it('lists types in the PurchaseItemType shape with total_items beyond one page', async () => {
      const page = await get('/purchase-item-types?count=2');
      expect(page.status).toBe(200);
      expect(contract.check('get', '/purchase-item-types', 200, page.body)).toEqual([]);
      expect(page.body.data.purchase_item_types).toHaveLength(2);
      expect(page.body.data.total_items).toBe(3);
      expect(Object.keys(page.body.data.purchase_item_types[0])).toEqual(['type_id', 'name']);
      expect((await get('/purchase-item-types?offset=3')).body.data).toEqual({ purchase_item_types: [], total_items: 3 });
    });

    it('sorts by name in both directions', async () => {
      const names = (direction: string) =>
        get(`/purchase-item-types?sort_field=name&sort_direction=${direction}`).then((r) => r.body.data.purchase_item_types.map((t: any) => t.name));
      expect(await names('ASC')).toEqual(['Goods', 'Service', 'Voucher']);
      expect(await names('DESC')).toEqual(['Voucher', 'Service', 'Goods']);
      const sorted = await get('/purchase-item-types?sort_field=type_id&sort_direction=ASC');
      expect(sorted.body.data.purchase_item_types[0].type_id).toBe(voucherType);
    });

    it('refuses an unknown sort field and a count above 1000', async () => {
      expectError(await get('/purchase-item-types?sort_field=colour'), 400, 'invalid_params_exception');
      expect(expectError(await get('/purchase-item-types?count=1001'), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
        name: 'count',
        reason: 'not_allowed_value',
      });
    });
  });
});

listChecks('GET /product-groups (enterprise)', () => ({
  url: `${server.api('enterprise')}/product-groups`,
  headers: pos,
  plural: 'product_groups',
  idField: 'product_group_id',
}));

listChecks('GET /product-brands (enterprise)', () => ({
  url: `${server.api('enterprise')}/product-brands`,
  headers: pos,
  plural: 'product_brands',
  idField: 'product_brand_id',
}));

listChecks('GET /product-brands (customer)', () => ({
  url: `${server.api('customer')}/product-brands`,
  headers: token,
  plural: 'product_brands',
  idField: 'product_brand_id',
}));

listChecks('GET /product-groups (customer)', () => ({
  url: `${server.api('customer')}/product-groups`,
  headers: token,
  plural: 'product_groups',
  idField: 'product_group_id',
}));

listChecks('GET /purchase-item-types (enterprise)', () => ({
  url: `${server.api('enterprise')}/purchase-item-types`,
  headers: pos,
  plural: 'purchase_item_types',
  idField: 'type_id',
}));

listChecks('GET /purchase-item-types (customer)', () => ({
  url: `${server.api('customer')}/purchase-item-types`,
  headers: token,
  plural: 'purchase_item_types',
  idField: 'type_id',
}));
