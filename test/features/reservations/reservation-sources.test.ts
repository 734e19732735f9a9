import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiContract } from '../../support/openapi.js';
import { insertReservationSource } from '../../support/reservations-fixtures.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

let server: TestServer;
let pos: Record<string, string>;
let token: Record<string, string>;
const names = ['Call centre', 'Kiosk', 'Mobile app', 'Partner shop'];
let ids: string[];
const contract = new OpenApiContract();

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  token = (await demoToken(server)).headers;
  ids = names.map((name) => insertReservationSource(server, name));
});
afterAll(() => server.close());

describe.each([
  ['enterprise', () => pos],
  ['customer', () => token],
] as const)('product reservation sources in the %s interface', (iface, headers) => {
  const url = (path: string) => `${server.api(iface)}${path}`;

  it('lists every source with total_items counting all of them beyond one page', async () => {
    const response = await call('GET', url('/product-reservation-sources?count=2'), { headers: headers() });
    expect(response.status).toBe(200);
    expect(response.body.data.product_reservation_sources).toHaveLength(2);
    expect(contract.check('get', '/product-reservation-sources', 200, response.body)).toEqual([]);
    expect(response.body.data.total_items).toBe(5);
  });

  it('sorts by name in both directions', async () => {
    const ascending = await call('GET', url('/product-reservation-sources?sort_field=name'), { headers: headers() });
    const sorted = ['Call centre', 'E-shop', 'Kiosk', 'Mobile app', 'Partner shop'];
    expect(ascending.body.data.product_reservation_sources.map((s: any) => s.name)).toEqual(sorted);
    const descending = await call('GET', url('/product-reservation-sources?sort_field=name&sort_direction=DESC'), { headers: headers() });
    expect(descending.body.data.product_reservation_sources.map((s: any) => s.name)).toEqual([...sorted].reverse());
  });

  it('answers [] with the total past the end', async () => {
    const response = await call('GET', url('/product-reservation-sources?offset=5'), { headers: headers() });
    expect(response.body.data).toEqual({ product_reservation_sources: [], total_items: 5 });
  });

  it('refuses an unknown sort field', async () => {
    const response = await call('GET', url('/product-reservation-sources?sort_field=colour'), { headers: headers() });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'sort_field', reason: 'not_allowed_value' });
  });

  it('reads one source in the ProductReservationSource shape', async () => {
    const response = await call('GET', url(`/product-reservation-sources/${ids[1]}`), { headers: headers() });
    expect(response.status).toBe(200);
    expect(contract.check('get', '/product-reservation-sources/{product_reservation_source_id}', 200, response.body)).toEqual([]);
    expect(Object.keys(response.body.data)).toEqual(['product_reservation_source_id', 'name', 'last_change', 'state']);
    expect(response.body.data).toMatchObject({ product_reservation_source_id: ids[1], name: 'Kiosk', state: 1 });
  });

  it('answers 404 for an unknown source', async () => {
    const response = await call('GET', url('/product-reservation-sources/ffffffffffffffffffffffffff'), { headers: headers() });
    expect(response.status).toBe(404);
  });
});

listChecks('GET /product-reservation-sources (enterprise)', () => ({
  url: `${server.api('enterprise')}/product-reservation-sources`,
  headers: pos,
  plural: 'product_reservation_sources',
  idField: 'product_reservation_source_id',
}));

listChecks('GET /product-reservation-sources (customer)', () => ({
  url: `${server.api('customer')}/product-reservation-sources`,
  headers: token,
  plural: 'product_reservation_sources',
  idField: 'product_reservation_source_id',
}));
