/**
 * A store's history reads at the hub (DESIGN §5: forwarded reads are answered for principals
 * that exist, within their rights; src/sync/hub/delegated-principals.ts): a registered node asks
 * `GET /sync/v1/history/…` for callers it names, and the hub answers only for a user, api user
 * or token it knows as active, and a token only as the customer it is logged in as, in a session
 * the hub made for that node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/auth/secrets.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import type { Principal } from '../../../src/http/principal.js';
import { basePath } from '../../../src/http/interfaces.js';
import { PRINCIPAL_HEADER, PROTOCOL_VERSION, TOKEN_HEADER, type ForwardedToken } from '../../../src/sync/protocol/protocol.js';
import { expectError } from '../../support/expect-error.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';

const EVA = DEMO_IDS.customerEva;
const JANA = DEMO_IDS.customerJana;
const MADE_UP_ID = 'de0000000000000000000fffff';

let hub: TestServer;
type Node = { node_name: string; node_secret: string };

let store: Node;
let posUserId: string;
let apiUserId: string;
/** A token of the store's, logged in as Jana by the hub for the store, by its stored id (the SHA-256 a store names). */
let janasToken: string;
let tokens = 0;

const idOf = (sql: string, value: string) => hub.app.node.db.prepare(sql).pluck().get(value) as string;

const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The headers of a node's sync request for a caller: node credentials, versions, and the caller. */
const syncHeaders = (node: Node, principal: Principal) => ({
  ...basic(node.node_name, node.node_secret),
  'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
  'x-loyaltyd-schema': String(schemaVersion()),
  [PRINCIPAL_HEADER]: encoded(principal),
});

/** A history read as a store makes it (src/sync/store/hub-client.ts). */
function forwarded(path: string, principal: Principal, node = store) {
  return call('GET', `${hub.url}/sync/v1/history${path}`, { headers: syncHeaders(node, principal) });
}

const enterprise = basePath('enterprise');
const customer = basePath('customer');
const pointsOf = (response: { body: { data: { points: { customer_id: string }[] } } }) => response.body.data.points;

/** A new token of the demo app, logged in as Jana at the hub. */
async function janasSession(): Promise<Awaited<ReturnType<typeof demoToken>>> {
  const token = await demoToken(hub);
  const login = await call('POST', `${hub.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: token.headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  expect(login.status).toBe(200);
  return token;
}

/**
 * A customer-app token a node holds, logged in as Jana by the hub for that node (a credential
 * call as src/sync/store/hub-sessions.ts makes it: the token without its secret); or, with
 * `action` 'logout', then logged out the same way.
 */
async function nodeSession(node: Node, action: 'login' | 'logout' = 'login'): Promise<string> {
  const secret = `a-token-of-${node.node_name}-${(tokens += 1)}`;
  const token: ForwardedToken = {
    id: sha256Hex(secret),
    api_user_id: apiUserId,
    external_application_id: demoCredentials.external_application_id,
    device: '{}',
    setup: '{}',
    push_token: null,
  };
  const asked = (path: string, principal: Principal, body?: unknown) =>
    call('POST', `${hub.url}/sync/v1/sessions${customer}/tokens/${secret}/actions/${path}`, {
      headers: { ...syncHeaders(node, principal), [TOKEN_HEADER]: encoded(token) },
      body,
    });
  const principal: Principal = { kind: 'token', apiUserId, tokenId: token.id, customerId: null };
  const login = await asked('login', principal, {
    login_type: 'email',
    login_value: demoCredentials.customer_email,
    password: demoCredentials.customer_password,
  });
  expect(login.body).toEqual({ data: { customer_id: JANA } });
  if (action === 'logout') expect((await asked('logout', { ...principal, customerId: JANA })).status).toBe(204);
  return token.id;
}

beforeAll(async () => {
  hub = await startTestServer({ config: { mode: 'hub' } });
  store = hub.app.services.nodes.add('store-forwarding', [DEMO_IDS.storeCentral]);
  posUserId = idOf('SELECT id FROM users WHERE login = ?', demoCredentials.pos_login);
  apiUserId = idOf('SELECT id FROM api_users WHERE user_name = ?', demoCredentials.api_user);
  // Eva has points at the hub, so a read answered for a principal naming her would show them.
  const assigned = await call('POST', `${hub.api('enterprise')}/points/actions/assign-points`, {
    headers: await demoPosLogin(hub),
    body: { customer_id: EVA, amount: 7 },
  });
  expect(assigned.status).toBe(204);
  janasToken = await nodeSession(store);
});

afterAll(async () => {
  await hub?.close();
});

describe('a forwarded history read', () => {
  it('for a user id the hub does not have answers 401', async () => {
    expectError(await forwarded(`${enterprise}/purchases`, { kind: 'user', userId: MADE_UP_ID, scheme: 'bearer' }), 401, 'unauthorized_exception');
  });

  it('for a user the hub has made inactive answers 401', async () => {
    const legacyUser = idOf('SELECT id FROM users WHERE login = ?', demoCredentials.legacy_basic_login);
    hub.app.node.db.prepare('UPDATE users SET state = 0 WHERE id = ?').run(legacyUser);
    expectError(
      await forwarded(`${enterprise}/purchases`, { kind: 'user', userId: legacyUser, scheme: 'legacy-basic' }),
      401,
      'unauthorized_exception',
    );
  });

  it('for an api user, known to the hub or not, answers 403: an api user reads no history', async () => {
    expectError(await forwarded(`${customer}/points`, { kind: 'api-user', apiUserId: MADE_UP_ID }), 403, 'forbidden_exception');
    expectError(await forwarded(`${customer}/points`, { kind: 'api-user', apiUserId }), 403, 'forbidden_exception');
  });

  it('for a made-up token naming Eva answers 401', async () => {
    const principal: Principal = { kind: 'token', apiUserId, tokenId: sha256Hex('made-up-token'), customerId: EVA };
    expectError(await forwarded(`${customer}/points`, principal), 401, 'unauthorized_exception');
  });

  it('for a real token claiming a customer it is not logged in as answers 403', async () => {
    const principal: Principal = { kind: 'token', apiUserId, tokenId: janasToken, customerId: EVA };
    expectError(await forwarded(`${customer}/points`, principal), 403, 'forbidden_exception');
  });

  it('for a token logged out at the hub, naming the customer it was logged in as, answers 403', async () => {
    const principal: Principal = { kind: 'token', apiUserId, tokenId: await nodeSession(store, 'logout'), customerId: JANA };
    expectError(await forwarded(`${customer}/points`, principal), 403, 'forbidden_exception');
  });

  it('for a session the hub made for another node, or at the hub itself, answers 403', async () => {
    const other = hub.app.services.nodes.add('store-other');
    const othersToken = await nodeSession(other);
    expect((await forwarded(`${customer}/points`, { kind: 'token', apiUserId, tokenId: othersToken, customerId: JANA }, other)).status).toBe(200);
    expectError(
      await forwarded(`${customer}/points`, { kind: 'token', apiUserId, tokenId: othersToken, customerId: JANA }),
      403,
      'forbidden_exception',
    );
    const atHub = sha256Hex((await janasSession()).tokenId);
    expectError(await forwarded(`${customer}/points`, { kind: 'token', apiUserId, tokenId: atHub, customerId: JANA }), 403, 'forbidden_exception');
  });

  it('for the demo POS user answers 200 with the chain purchases', async () => {
    const response = await forwarded(`${enterprise}/purchases`, { kind: 'user', userId: posUserId, scheme: 'bearer' });
    expect(response.status).toBe(200);
    expect(response.body.data.total_items).toBeGreaterThan(0);
    expect(response.body.data.purchases.length).toBeGreaterThan(0);
  });

  it("for a token logged in as Jana answers 200 with Jana's points only", async () => {
    const response = await forwarded(`${customer}/points`, { kind: 'token', apiUserId, tokenId: janasToken, customerId: JANA });
    expect(response.status).toBe(200);
    const points = pointsOf(response);
    expect(points.length).toBeGreaterThan(0);
    expect(new Set(points.map((point) => point.customer_id))).toEqual(new Set([JANA]));
  });
});
