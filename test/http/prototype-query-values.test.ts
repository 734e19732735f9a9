/**
 * Query values named like Object.prototype's members (`?sort_field=constructor`) are values
 * like any other: a sort field not in a collection's list answers 400 naming `sort_field`, and
 * no parameter of any collection answers 5xx for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../support/collections.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

let server: TestServer;
let pos: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('prototype-named query values', () => {
  it.each(COLLECTIONS.map(([path]) => path))('GET %s?sort_field=<each> answers 400 naming sort_field', async (path) => {
    for (const name of NAMES) {
      const response = await call('GET', `${server.api('enterprise')}${path}?sort_field=${name}`, { headers: pos });
      expect(response.status, `${path}?sort_field=${name}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error.error_data.invalid_params).toEqual([expect.objectContaining({ name: 'sort_field', value: name })]);
    }
  });

  it.each(COLLECTIONS.map(([path, query]) => [path, Object.keys(query.shape)] as const))(
    'GET %s with each parameter set to each name answers below 500',
    async (path, parameters) => {
      for (const parameter of parameters) {
        for (const name of NAMES) {
          const response = await call('GET', `${server.api('enterprise')}${path}?${parameter}=${name}`, { headers: pos });
          expect(response.status, `${path}?${parameter}=${name}: ${JSON.stringify(response.body)}`).toBeLessThan(500);
        }
      }
    },
  );
});
