import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../../src/demo/demo.js';
import { listChecks } from '../../support/list-checks.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let pos: Record<string, string>;
let kiosk: string;

beforeAll(async () => {
  server = await startTestServer();
  pos = await demoPosLogin(server);
  // Applications are registered by the operator, not through the API.
  kiosk = server.app.services.applications.create('Store kiosk').external_application_id;
});
afterAll(() => server.close());

describe('GET /customer-external-applications', () => {
  it('lists the demo application and the one registered here, and reads each by id', async () => {
    const list = await call('GET', `${server.api('enterprise')}/customer-external-applications`, { headers: pos });
    expect(
      list.body.data.customer_external_applications.map((application: { external_application_id: string }) => application.external_application_id),
    ).toEqual(expect.arrayContaining([demoCredentials.external_application_id, kiosk]));
    const one = await call('GET', `${server.api('enterprise')}/customer-external-applications/${kiosk}`, { headers: pos });
    expect(one.body.data).toMatchObject({ external_application_id: kiosk, name: 'Store kiosk', state: 1 });
  });
});

listChecks('GET /customer-external-applications (enterprise)', () => ({
  url: `${server.api('enterprise')}/customer-external-applications`,
  headers: pos,
  plural: 'customer_external_applications',
  idField: 'external_application_id',
}));
