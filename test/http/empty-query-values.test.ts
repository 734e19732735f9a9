/**
 * An empty query value (`?customer_id=`) is refused like any other bad value: 400 naming the
 * parameter. A POS that sends `customer_id=` for "no customer" must get neither every
 * customer's records nor silently none. Every parameter of every collection's query schema is
 * tried, so a filter added later is covered too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { janaSession } from '../support/customers-fixtures.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';
import { COLLECTIONS } from '../support/collections.js';

/** Text filters: an empty value is `empty`, as the error catalogue's reason for it says. */
const TEXT_FILTERS: [path: string, parameter: string][] = [
  ['/customers', 'email'],
  ['/customers', 'first_name'],
  ['/customers', 'last_name'],
  ['/customers', 'customer_source_id'],
  ['/cards', 'customer_id'],
  ['/cards', 'card_number'],
  ['/cards', 'card_type_id'],
  ['/customer-source-records', 'customer_id'],
  ['/customer-source-records', 'external_id'],
  ['/customer-source-records', 'customer_source_id'],
  ['/stores', 'property_id'],
  ['/stores', 'property_value'],
  ['/vouchers', 'customer_id'],
  ['/vouchers', 'code'],
  ['/vouchers', 'store_id'],
  ['/points', 'customer_id'],
  ['/points', 'point_type_id'],
  ['/credits', 'customer_id'],
  ['/credits', 'credit_type_id'],
  ['/credits', 'note'],
  ['/purchases', 'customer_id'],
  ['/purchases', 'store_id'],
  ['/purchases', 'type_id'],
  ['/products', 'name'],
  ['/events', 'external_id'],
];

let server: TestServer;
let pos: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
});
afterAll(() => server.close());

const cases = COLLECTIONS.flatMap(([path, query]) => Object.keys(query.shape).map((parameter) => [path, parameter] as const));

describe('an empty query value', () => {
  it.each(cases)('GET %s?%s= answers 400 empty naming the parameter (an array parameter by its element)', async (path, parameter) => {
    const response = await call('GET', `${server.api('enterprise')}${path}?${parameter}=`, { headers: pos });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    const name = expect.stringMatching(new RegExp(`^${parameter}(\\.0)?$`));
    expect(response.body.error.error_data.invalid_params).toEqual([expect.objectContaining({ name, value: '', reason: 'empty' })]);
  });

  it.each(TEXT_FILTERS)('GET %s?%s= answers the reason empty, also for a value of spaces', async (path, parameter) => {
    for (const value of ['', '%20%20']) {
      const response = await call('GET', `${server.api('enterprise')}${path}?${parameter}=${value}`, { headers: pos });
      expect(response.body.error.error_data.invalid_params).toEqual([expect.objectContaining({ name: parameter, reason: 'empty' })]);
    }
  });

  it('customer_id= in the customer interface answers empty, not the logged-in customer’s records', async () => {
    const jana = await janaSession(server);
    for (const path of ['/cards', '/vouchers', '/points', '/purchases', '/customer-source-records']) {
      const response = await call('GET', `${server.api('customer')}${path}?customer_id=`, { headers: jana.headers });
      expect(response.body.error.error_data.invalid_params, path).toEqual([expect.objectContaining({ name: 'customer_id', reason: 'empty' })]);
    }
  });
});
