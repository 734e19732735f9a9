/**
 * Customer-app logins a store forwards to the hub count against that node's own cap, whatever
 * caller address the store names (src/decisions/0105-login-throttles.md): a compromised store that
 * names a new address for every guess, with its real node secret, is answered 429 once its node's
 * failures reach the cap, while another store's caller logs the same customer in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/auth/secrets.js';
import { demoCredentials } from '../../../../src/demo/demo.js';
import { schemaVersion } from '../../../../src/db/migrate.js';
import { basePath } from '../../../../src/http/interfaces.js';
import {
  CALLER_ADDRESS_HEADER,
  PRINCIPAL_HEADER,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  SCHEMA_HEADER,
  TOKEN_HEADER,
} from '../../../../src/sync/protocol/protocol.js';
import { expectError } from '../../../support/expect-error.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../../../support/in-process-cluster.js';
import { basic, call, demoToken, type JsonResponse } from '../../../support/server.js';

const NODE_CAP = 6;
const NODE_WINDOW_SECONDS = 3600;

let cluster: InProcessCluster;
let hostile: InProcessStore;
let honest: InProcessStore;

beforeAll(async () => {
  cluster = await startInProcessCluster({
    stores: 2,
    hubConfig: { 'auth.login_failures_per_node': NODE_CAP, 'auth.node_login_failure_window_seconds': NODE_WINDOW_SECONDS },
  });
  [hostile, honest] = cluster.stores as [InProcessStore, InProcessStore];
});
afterAll(() => cluster?.close());

type Token = Awaited<ReturnType<typeof demoToken>>;

const janaBy = (password: string) => ({ login_type: 'email', login_value: demoCredentials.customer_email, password });

/** A login the hostile store's server crafts with its node secret, naming `address` as its caller's. */
function craftedLogin(token: Token, address: string, password: string): Promise<JsonResponse> {
  const hubDb = cluster.hub.app.node.db;
  const apiUserId = hubDb.prepare('SELECT id FROM api_users WHERE user_name = ?').pluck().get(demoCredentials.api_user) as string;
  const tokenHash = sha256Hex(token.tokenId);
  const principal = { kind: 'token', apiUserId, tokenId: tokenHash, customerId: null };
  const forwarded = hostile.server.app.node.db
    .prepare('SELECT id, api_user_id, external_application_id, device, setup, push_token FROM tokens WHERE id = ?')
    .get(tokenHash);
  return call('POST', `${cluster.hub.url}/sync/v1/sessions${basePath('customer')}/tokens/${tokenHash}/actions/login`, {
    headers: {
      ...basic(hostile.credentials.node_name, hostile.credentials.node_secret),
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      [SCHEMA_HEADER]: String(schemaVersion()),
      [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url'),
      [TOKEN_HEADER]: Buffer.from(JSON.stringify(forwarded)).toString('base64url'),
      [CALLER_ADDRESS_HEADER]: address,
    },
    body: janaBy(password),
  });
}

/** A customer-app login at a store, which the store asks its hub for. */
function loginAt(store: InProcessStore, token: Token, address: string, password: string): Promise<JsonResponse> {
  return call('POST', `${store.server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: { ...token.headers, 'x-forwarded-for': address },
    body: janaBy(password),
  });
}

describe("a store's failed customer-app logins at the hub", () => {
  it("count against its node's cap whatever address it names: past it that node's logins answer 429, another node's are served", async () => {
    const guesses = await demoToken(hostile.server);
    const hostileCustomer = await demoToken(hostile.server);
    const honestCustomer = await demoToken(honest.server);
    expect((await cluster.round(hostile)).ok).toBe(true);
    expect((await cluster.round(honest)).ok).toBe(true);
    expect(NODE_CAP).toBeGreaterThan(cluster.hub.config.auth.login_failures_allowed);

    // A new caller address for every guess: no caller's count, and not the customer's, stops them.
    for (let guess = 1; guess <= NODE_CAP; guess += 1) {
      expectError(await craftedLogin(guesses, `203.0.113.${guess}`, `wrong-${guess}`), 401, 'unauthorized_exception');
    }
    const capped = await craftedLogin(guesses, '203.0.113.200', demoCredentials.customer_password);
    const error = expectError(capped, 429, 'too_many_requests_exception');
    const retryAfter = Number(capped.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(cluster.hub.config.auth.login_failure_window_seconds);
    expect(retryAfter).toBeLessThanOrEqual(NODE_WINDOW_SECONDS);
    expect(error.error_data.retry_after).toBe(retryAfter);
    // The store's own callers are refused with it: the node's logins are capped.
    expectError(await loginAt(hostile, hostileCustomer, '198.51.100.30', demoCredentials.customer_password), 429, 'too_many_requests_exception');

    // The customer the guesses named logs in at another store, from her own address.
    const logged = await loginAt(honest, honestCustomer, '198.51.100.20', demoCredentials.customer_password);
    expect(logged.status).toBe(200);
    const hubDb = cluster.hub.app.node.db;
    expect(hubDb.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256Hex(honestCustomer.tokenId))).toBe(
      logged.body.data.customer_id,
    );
    expect(hubDb.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256Hex(guesses.tokenId))).toBeNull();
  });
});
