/**
 * A store's history read that the store gave up on before the hub began it is not run
 * (src/sync/hub/abandoned-reads.ts). A store closes its connection when its history timeout
 * passes; a hub busy past that timeout finds the request and the close waiting together, which
 * is what a request written and closed at once makes. Whether the hub ran a read is read from
 * its /metrics, which count the requests it answered by route, against what a read the store
 * waits for adds to them.
 */
import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import { basePath } from '../../../src/http/interfaces.js';
import { PRINCIPAL_HEADER, PROTOCOL_VERSION } from '../../../src/sync/protocol/protocol.js';
import { basic, call, startTestServer, type TestServer } from '../../support/server.js';

const ROUTE = `${basePath('enterprise')}/events`;

let hub: TestServer;
let headers: Record<string, string>;

beforeAll(async () => {
  hub = await startTestServer({ config: { mode: 'hub' } });
  const store = hub.app.services.nodes.add('store-giving-up', [DEMO_IDS.storeCentral]);
  const posUserId = hub.app.node.db.prepare('SELECT id FROM users WHERE login = ?').pluck().get(demoCredentials.pos_login) as string;
  headers = {
    ...basic(store.node_name, store.node_secret),
    'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
    'x-loyaltyd-schema': String(schemaVersion()),
    [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify({ kind: 'user', userId: posUserId, scheme: 'bearer' })).toString('base64url'),
  };
});

afterAll(async () => {
  await hub?.close();
});

/** How many GETs of ROUTE the hub has answered with 200. */
async function answered(): Promise<number> {
  const metrics = (await fetch(`${hub.url}/metrics`)).text();
  const sample = (await metrics).split('\n').find((line) => line.startsWith('loyaltyd_http_requests_total{') && line.includes(`route="${ROUTE}"`));
  return sample ? Number(sample.split(' ').at(-1)) : 0;
}

describe('a forwarded history read', () => {
  it('is not run when the store closed its connection before the hub began it; one the store waits for is', async () => {
    const waitedFor = async () => expect((await call('GET', `${hub.url}/sync/v1/history${ROUTE}`, { headers })).status).toBe(200);
    // What one read the store waits for adds to the count: the metrics are the measure, not a number of lines.
    const start = await answered();
    await waitedFor();
    const oneRead = (await answered()) - start;
    expect(oneRead).toBeGreaterThan(0);

    const before = await answered();
    const socket = connect(Number(new URL(hub.url).port), '127.0.0.1');
    await once(socket, 'connect');
    const lines = [
      `GET /sync/v1/history${ROUTE} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    socket.destroy();
    await waitedFor();
    expect((await answered()) - before).toBe(oneRead);
  });
});
