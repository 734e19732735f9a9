import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let auth: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('the HTTP frame', () => {
  it('answers a collection in the data envelope with its plural key and total_items', async () => {
    const response = await call('GET', `${server.api('enterprise')}/customer-external-applications`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body.data.total_items).toBe(1);
    expect(response.body.data.customer_external_applications[0].name).toBe('Demo POS and customer app');
  });

  it('answers an unknown path with 404 in the error envelope', async () => {
    const response = await call('GET', `${server.api('enterprise')}/no-such-resource`, { headers: auth });
    expect(response.status).toBe(404);
    expect(response.body.error.exception).toBe('not_found_exception');
  });
});
