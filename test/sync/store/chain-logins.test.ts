/**
 * Customer-app logins a store asks its hub to make (src/sync/store/hub-sessions.ts) are throttled
 * at the hub by the address of the store's caller, not by the store's own address: failed logins
 * from one caller's address lock that address out, and another caller at the same store still
 * logs in; an address the store names that is not an IP address is refused. The callers'
 * addresses reach the store as a reverse proxy on its host names them. Since the store names them,
 * each node's failures also count against a cap of its own (src/decisions/0105-login-throttles.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/auth/secrets.js';
import { demoCredentials } from '../../../src/demo/demo.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../../support/in-process-cluster.js';
import { basePath } from '../../../src/http/interfaces.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import {
  CALLER_ADDRESS_HEADER,
  PRINCIPAL_HEADER,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  SCHEMA_HEADER,
  TOKEN_HEADER,
} from '../../../src/sync/protocol/protocol.js';
import { expectError } from '../../support/expect-error.js';
import { basic, call, demoToken } from '../../support/server.js';

const GUESSER = '203.0.113.7';
const CUSTOMER = '198.51.100.20';

let cluster: InProcessCluster;
let store: InProcessStore;

beforeAll(async () => {
  cluster = await startInProcessCluster({ stores: 1 });
  [store] = cluster.stores as [InProcessStore];
});
afterAll(() => cluster?.close());

type Token = Awaited<ReturnType<typeof demoToken>>;

function login(token: Token, address: string, email: string, password: string) {
  return call('POST', `${store.server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: { ...token.headers, 'x-forwarded-for': address },
    body: { login_type: 'email', login_value: email, password },
  });
}

describe("a store's customer-app logins at its hub", () => {
  it('lock out the address of the caller who failed, not every caller of the store', async () => {
    const guesser = await demoToken(store.server);
    const customer = await demoToken(store.server);
    expect((await cluster.round(store)).ok).toBe(true);
    const allowed = cluster.hub.config.auth.login_failures_per_address;
    for (let guess = 1; guess <= allowed; guess += 1) {
      expect((await login(guesser, GUESSER, `nobody-${guess}@example.com`, 'wrong')).status).toBe(401);
    }
    expect((await login(guesser, GUESSER, `nobody-${allowed + 1}@example.com`, 'wrong')).status).toBe(429);

    const logged = await login(customer, CUSTOMER, demoCredentials.customer_email, demoCredentials.customer_password);
    expect(logged.status).toBe(200);
    expect(cluster.hub.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256Hex(customer.tokenId))).toBe(
      logged.body.data.customer_id,
    );
  });

  it('are refused 400 when the store names an address that is not one', async () => {
    const token = await demoToken(store.server);
    expect((await cluster.round(store)).ok).toBe(true);
    const hubDb = cluster.hub.app.node.db;
    const apiUserId = hubDb.prepare('SELECT id FROM api_users WHERE user_name = ?').pluck().get(demoCredentials.api_user) as string;
    const principal = { kind: 'token', apiUserId, tokenId: sha256Hex(token.tokenId), customerId: null };
    // The store sends its token without the secret with every credential call (src/sync/store/hub-sessions.ts).
    const forwarded = store.server.app.node.db
      .prepare('SELECT id, api_user_id, external_application_id, device, setup, push_token FROM tokens WHERE id = ?')
      .get(sha256Hex(token.tokenId));
    const asked = await call('POST', `${cluster.hub.url}/sync/v1/sessions${basePath('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: {
        ...basic(store.credentials.node_name, store.credentials.node_secret),
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
        [SCHEMA_HEADER]: String(schemaVersion()),
        [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url'),
        [TOKEN_HEADER]: Buffer.from(JSON.stringify(forwarded)).toString('base64url'),
        [CALLER_ADDRESS_HEADER]: 'somewhere',
      },
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
    });
    expect(asked.status).toBe(400);
    expect(asked.body.error.error_data.invalid_params).toMatchObject([{ name: CALLER_ADDRESS_HEADER }]);
  });
});

describe("a node's cap on the failed logins it forwards", () => {
  const CAP = 4;
  let capped: InProcessCluster;

  beforeAll(async () => {
    capped = await startInProcessCluster({ stores: 2, hubConfig: { 'auth.login_failures_per_node': CAP } });
  });
  afterAll(() => capped?.close());

  function loginAt(at: InProcessStore, token: Token, address: string, password: string) {
    return call('POST', `${at.server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: { ...token.headers, 'x-forwarded-for': address },
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password },
    });
  }

  it('holds a store naming a new address for every guess, and leaves other stores their logins', async () => {
    const [hostile, honest] = capped.stores as [InProcessStore, InProcessStore];
    const guesser = await demoToken(hostile.server);
    const customer = await demoToken(honest.server);
    for (const at of [hostile, honest]) expect((await capped.round(at)).ok).toBe(true);

    for (let guess = 1; guess <= CAP; guess += 1) {
      expect((await loginAt(hostile, guesser, `203.0.113.${guess}`, 'wrong')).status).toBe(401);
    }
    expectError(await loginAt(hostile, guesser, '203.0.113.200', 'wrong'), 429, 'too_many_requests_exception');
    // Past its cap even a right password from a fresh address waits: the node is locked out, not a caller.
    expect((await loginAt(hostile, guesser, '203.0.113.201', demoCredentials.customer_password)).status).toBe(429);

    const logged = await loginAt(honest, customer, '198.51.100.9', demoCredentials.customer_password);
    expect(logged.status).toBe(200);
  });
});
