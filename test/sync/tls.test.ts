/**
 * TLS on the LAN and between store and hub (issue 20), with a private CA and certificates
 * made at test time by openssl (test/support/certificates.ts): a POS calls a store over
 * https; a store syncs with its hub over https trusting the chain's CA; a hub that asks for
 * client certificates refuses a store without one — at its sync routes ('sync'), or in the
 * handshake ('all').
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { runRound } from '../../src/sync/store/agent.js';
import type { SyncParts } from '../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../src/root/store.js';
import { makePki, type TestPki } from '../support/certificates.js';
import { DEMO_STORES, freePort, NodeProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { startTestServer, tempDir, TestClock, type TestServer } from '../support/server.js';

let dir: string;
let pki: TestPki;
let trusting: Agent;
const opened: { close(): Promise<void> }[] = [];

beforeAll(() => {
  dir = tempDir('loyaltyd-tls-');
  pki = makePki(dir);
  trusting = new Agent({ connect: { ca: readFileSync(pki.caCert) } });
});

afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

afterAll(async () => {
  await trusting.close();
  rmSync(dir, { recursive: true, force: true });
});

function tlsConfig(clientCertificates: 'off' | 'sync' | 'all'): Record<string, unknown> {
  return {
    'http.tls': { cert_file: pki.server.cert, key_file: pki.server.key, client_ca_file: pki.caCert, client_certificates: clientCertificates },
  };
}

async function started(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  opened.push(server);
  return server;
}

/** A JSON call over https through `agent` (the POS's, trusting the chain's CA). */
async function json(method: 'GET' | 'POST', url: string, agent: Agent, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await request(url, {
    method,
    dispatcher: agent,
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? (JSON.parse(text) as any) : undefined };
}

/** A store syncing with `hub` through the hub client's own config: the hub's CA, and a client certificate or none. */
async function storeOf(hub: TestServer, name: string, clock: TestClock, clientCertificate: boolean): Promise<{ store: TestServer; sync: SyncParts }> {
  const credentials = hub.app.services.nodes.add(name, DEMO_STORES);
  const client = clientCertificate ? pki.client(name) : undefined;
  const store = await started({
    demo: false,
    clock,
    config: {
      'hub.url': hub.url,
      'hub.ca_file': pki.caCert,
      ...(client ? { 'hub.cert_file': client.cert, 'hub.key_file': client.key } : {}),
      'node.name': credentials.node_name,
      'node.secret': credentials.node_secret,
    },
  });
  const sync = createStoreSync(store.app.node, store.config, clock.now)!;
  opened.push(sync.client);
  return { store, sync };
}

describe('TLS', () => {
  it("a POS calls a store over https, trusting the chain's CA; plain HTTP and an untrusting client get nothing", async () => {
    const store = await started({ config: tlsConfig('off') });
    expect(store.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const login = await json('POST', `${store.api('enterprise')}/users/actions/login`, trusting, {
      body: {
        user_external_application_id: demoCredentials.external_application_id,
        login: demoCredentials.pos_login,
        password: demoCredentials.pos_password,
      },
    });
    expect(login.status).toBe(200);
    const payment = await json('POST', `${store.api('enterprise')}/purchases/actions/accept-payment`, trusting, {
      headers: { authorization: `Bearer ${login.body.data.bearer_token}` },
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        payment_type: 'S',
        card_number: demoCredentials.customer_card,
        bill: {
          bill_id: 'tls-1',
          payment_time: '2026-11-25 10:00:00',
          currency_id: 'CZK',
          total_price: '65',
          bill_items: [
            {
              plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }],
              plu_name: 'Cappuccino',
              quantity: 1,
              price: 65,
              paid_amount: 65,
              bill_item_id: 1,
            },
          ],
        },
      },
    });
    expect(payment.status, JSON.stringify(payment.body)).toBe(200);
    expect(payment.body.data.accepted_payment).toHaveProperty('total_credit_points');
    await expect(
      request(store.url.replace('https:', 'http:') + '/health', { headersTimeout: 2000 }).then((response) => response.body.text()),
    ).rejects.toThrow();
    const untrusting = new Agent();
    await expect(request(`${store.url}/health`, { dispatcher: untrusting })).rejects.toThrow(/certificate/i);
    await untrusting.close();
  });

  it("a store syncs with its hub over https; with client certificates asked at sync, a store without one is refused and its API and the hub's stay open", async () => {
    const clock = new TestClock();
    const hub = await started({ clock, config: { mode: 'hub', ...tlsConfig('sync') } });
    const { store, sync } = await storeOf(hub, 'store-tls', clock, true);
    expect(await runRound(sync, clock.now)).toMatchObject({ ok: true, bootstrapped: true });
    expect((store.app.node.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n).toBeGreaterThan(0);

    const { sync: refusedSync } = await storeOf(hub, 'store-no-certificate', clock, false);
    const refused = await runRound(refusedSync, clock.now);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/401.*client certificate/);
    // The API of a hub in 'sync' mode takes clients without a certificate.
    expect((await json('GET', `${hub.url}/health`, trusting)).status).toBe(200);
  });

  it('a hub asking for client certificates in the handshake refuses a store without one and serves a store with one', async () => {
    const clock = new TestClock();
    const hub = await started({ clock, config: { mode: 'hub', ...tlsConfig('all') } });
    const { sync: refusedSync } = await storeOf(hub, 'store-bare', clock, false);
    const refused = await runRound(refusedSync, clock.now);
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/hub unreachable/) });
    const { sync } = await storeOf(hub, 'store-certified', clock, true);
    expect(await runRound(sync, clock.now)).toMatchObject({ ok: true, bootstrapped: true });
  });

  it('`loyaltyd serve` with a certificate in its config serves https and says so', async () => {
    const nodeDir = join(dir, 'served');
    mkdirSync(nodeDir);
    const node = new NodeProcess({
      name: 'tls-store',
      mode: 'store',
      dataDir: nodeDir,
      port: await freePort(),
      env: { LOYALTYD_TLS_CERT_FILE: pki.server.cert, LOYALTYD_TLS_KEY_FILE: pki.server.key, LOYALTYD_LOG_LEVEL: 'warn' },
      logDir: dir,
      scheme: 'https',
    });
    opened.push({
      close: async () => {
        await node.kill();
        await node.closeLog();
      },
    });
    await node.start();
    await waitFor('the serving line in the log', () => node.logTail().includes(`serving https://127.0.0.1:${node.port}`));
    expect((await json('GET', `${node.url}/health`, trusting)).status).toBe(200);
  });
});
