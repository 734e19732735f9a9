/**
 * A store's history reads at the hub (DESIGN §5: forwarded reads are answered for principals
 * that exist, within their rights; src/sync/hub/delegated-principals.ts): a registered node asks
 * `GET /sync/v1/history/…` for callers it names, and the hub answers only for a user, api user
 * or token it knows as active, and a token only as the customer it is logged in as.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/auth/secrets.js';
import { schemaVersion } from '../../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../../src/demo/demo.js';
import type { Principal } from '../../../src/http/principal.js';
import { basePath } from '../../../src/http/interfaces.js';
import { PRINCIPAL_HEADER, PROTOCOL_VERSION } from '../../../src/sync/protocol/protocol.js';
import { expectError } from '../../support/expect-error.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../../support/server.js';

const EVA = DEMO_IDS.customerEva;
const JANA = DEMO_IDS.customerJana;
const MADE_UP_ID = 'de0000000000000000000fffff';

let hub: TestServer;
let store: { node_name: string; node_secret: string };
let posUserId: string;
let apiUserId: string;
/** A token the demo app logged in as Jana at the hub, by its stored id (the SHA-256 a store names). */
let janasToken: string;

const idOf = (sql: string, value: string) => hub.app.node.db.prepare(sql).pluck().get(value) as string;

/** A history read as a store makes it (src/sync/store/hub-client.ts): node credentials, versions, and the caller. */
function forwarded(path: string, principal: Principal) {
  return call('GET', `${hub.url}/sync/v1/history${path}`, {
    headers: {
      ...basic(store.node_name, store.node_secret),
      'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
      'x-loyaltyd-schema': String(schemaVersion()),
      [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url'),
    },
  });
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
  janasToken = sha256Hex((await janasSession()).tokenId);
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
    const token = await janasSession();
    expect((await call('POST', `${hub.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers })).status).toBe(204);
    const principal: Principal = { kind: 'token', apiUserId, tokenId: sha256Hex(token.tokenId), customerId: JANA };
    expectError(await forwarded(`${customer}/points`, principal), 403, 'forbidden_exception');
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
