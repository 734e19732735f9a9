/**
 * No list reads a whole table for a page: it sorts only by fields an index keeps in order (and
 * says which in /openapi.json), starts a page at most 10,000 items in, and counts total_items
 * no further than paging can reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COUNT, MAX_OFFSET } from '../../src/core/paging.js';
import { expectError } from '../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let auth: Record<string, string>;
const get = (path: string) => call('GET', `${server.api('enterprise')}${path}`, { headers: auth });

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('list bounds', () => {
  it('a sort by a field no index orders (total_price, cashdesk_number, last_change) answers 400 not_allowed_value; an indexed one is served', async () => {
    for (const field of ['total_price', 'cashdesk_number', 'last_change']) {
      const error = expectError(await get(`/purchases?sort_field=${field}`), 400, 'invalid_params_exception');
      expect(error.error_data.invalid_params).toEqual([expect.objectContaining({ name: 'sort_field', reason: 'not_allowed_value', value: field })]);
    }
    for (const field of ['purchase_id', 'payment_time']) expect((await get(`/purchases?sort_field=${field}&sort_direction=DESC`)).status).toBe(200);
  });

  it(`an offset past ${MAX_OFFSET} answers 400 not_allowed_value; ${MAX_OFFSET} itself is served`, async () => {
    const error = expectError(await get(`/customers?offset=${MAX_OFFSET + 1}`), 400, 'invalid_params_exception');
    expect(error.error_data.invalid_params).toEqual([expect.objectContaining({ name: 'offset', reason: 'not_allowed_value' })]);
    const last = await get(`/customers?offset=${MAX_OFFSET}`);
    expect(last.status).toBe(200);
    expect(last.body.data.customers).toEqual([]);
  });

  it('/openapi.json lists the sort fields of every list', async () => {
    const document = (await call('GET', `${server.url}/openapi.json`)).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; schema: any }[] }>>;
    };
    const lists = Object.entries(document.paths).flatMap(([path, operations]) => {
      const parameters = operations.get?.parameters ?? [];
      const sort = parameters.find((parameter) => parameter.name === 'sort_field');
      return sort ? [{ path, sort }] : [];
    });
    expect(lists.length).toBeGreaterThan(20);
    for (const { path, sort } of lists) expect([path, sort.schema.enum?.length > 0]).toEqual([path, true]);
    const purchases = lists.find(({ path }) => path.endsWith('/enterprise-interface/v1.0/purchases'))!;
    expect(purchases.sort.schema.enum).toEqual(['purchase_id', 'payment_time']);
  });

  it('total_items counts every match up to the last item paging reaches, and no further', async () => {
    const reachable = MAX_OFFSET + MAX_COUNT;
    const before = (await get('/purchases')).body.data.total_items as number;
    server.app.node.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO purchases (id, store_id, external_purchase_id, payment_time, total_price_minor, hlc, last_change)
         SELECT printf('zz%024d', i), 'bulk-store', 'bulk-' || i, '2026-01-01 00:00:00', 100, '0', '2026-01-01T00:00:00.000Z' FROM n`,
      )
      .run(reachable + 5);
    expect((await get('/purchases?count=1')).body.data.total_items).toBe(reachable);
    const last = await get(`/purchases?offset=${MAX_OFFSET}&count=${MAX_COUNT}`);
    expect(last.body.data.purchases).toHaveLength(MAX_COUNT);
    expect((await get('/purchases?payment_time_from=2026-02-01 00:00:00')).body.data.total_items).toBe(before);
  });
});
