/**
 * The tokens resource of the customer interface (interface.md "Tokens", DESIGN §4):
 * creating and updating a token, customer login and logout on it, failed-login throttling,
 * and what each token write leaves in the change feed and the outbox (DESIGN §5).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError, invalidParams } from '../../support/expect-error.js';
import {
  basic,
  call,
  demoPosLogin,
  demoToken,
  startTestServer,
  TestClock,
  type JsonResponse,
  type TestServer,
  type TestServerOptions,
} from '../../support/server.js';
import { sha256 } from '../../support/credentials.js';
import { janaSession } from '../../support/customers-fixtures.js';
import { lastOutboxSeq, outboxKindsSince, queuedChanges, type QueuedChange } from '../../support/outbox.js';

const APP = demoCredentials.external_application_id;
const UNKNOWN_ID = 'ffffffffffffffffffffffffff';
const FAILURE_WINDOW_MS = 900 * 1000;
const PETR_EMAIL = 'petr.svoboda@example.com';

interface Token {
  tokenId: string;
  headers: Record<string, string>;
}

function tokenRow(server: TestServer, tokenId: string): Record<string, any> | undefined {
  return server.app.node.db.prepare('SELECT * FROM tokens WHERE id = ?').get(sha256(tokenId)) as Record<string, any> | undefined;
}

function createToken(server: TestServer, body: unknown, headers = basic(demoCredentials.api_user, '')): Promise<JsonResponse> {
  return call('POST', `${server.api('customer')}/tokens`, { headers, body });
}

function updateToken(server: TestServer, path: string, token: Token, body: unknown): Promise<JsonResponse> {
  return call('PUT', `${server.api('customer')}/tokens/${path}`, { headers: token.headers, body });
}

/** A login from a given client address (the daemon trusts X-Forwarded-For from loopback only). */
function login(server: TestServer, token: Token, body: Record<string, unknown>, address?: string): Promise<JsonResponse> {
  return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: { ...token.headers, ...(address ? { 'x-forwarded-for': address } : {}) },
    body,
  });
}

const DAY_MS = 86_400_000;

const byCard = (password = demoCredentials.customer_password) => ({ login_type: 'card', login_value: demoCredentials.customer_card, password });
const byEmail = (password = demoCredentials.customer_password, email = demoCredentials.customer_email) => ({
  login_type: 'email',
  login_value: email,
  password,
});

function logout(server: TestServer, path: string, token: Token): Promise<JsonResponse> {
  return call('POST', `${server.api('customer')}/tokens/${path}/actions/logout`, { headers: token.headers });
}

function readJana(server: TestServer, token: Token): Promise<JsonResponse> {
  return call('GET', `${server.api('customer')}/customers/${DEMO_IDS.customerJana}`, { headers: token.headers });
}

function addApplication(server: TestServer, id: string): void {
  server.app.node.writes.write(null, (tx) => tx.insert('external_applications', { id, name: `Application ${id}`, state: 1 }));
}

describe('POST /tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 201 with only a token_id, which then opens the customer interface', async () => {
    const created = await createToken(server, { device: { device_id: 'kiosk-1' }, setup: { language_id: 'en' }, external_application_id: APP });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(created.body)).toEqual(['data']);
    expect(Object.keys(created.body.data)).toEqual(['token_id']);
    const tokenId = created.body.data.token_id as string;
    expect(tokenId).toMatch(/^[0-9a-f]{40}$/);
    const update = await updateToken(
      server,
      tokenId,
      { tokenId, headers: basic(demoCredentials.api_user, tokenId) },
      { setup: { language_id: 'cs' } },
    );
    expect(update.status).toBe(204);
  });

  it('each call hands out a different token', async () => {
    const body = { device: { device_id: 'same-device' }, setup: {}, external_application_id: APP };
    const first = await createToken(server, body);
    const second = await createToken(server, body);
    expect(first.body.data.token_id).not.toBe(second.body.data.token_id);
  });

  it('accepts external_application_id at the top level and stores it in the token and its setup', async () => {
    const created = await createToken(server, { device: {}, setup: { language_id: 'en' }, external_application_id: APP });
    expect(created.status).toBe(201);
    const row = tokenRow(server, created.body.data.token_id)!;
    expect(row.external_application_id).toBe(APP);
    expect(JSON.parse(row.setup)).toEqual({ language_id: 'en', external_application_id: APP });
  });

  it('accepts external_application_id inside setup', async () => {
    const created = await createToken(server, { device: {}, setup: { external_application_id: APP, allowed_gps: false } });
    expect(created.status).toBe(201);
    const row = tokenRow(server, created.body.data.token_id)!;
    expect(row.external_application_id).toBe(APP);
    expect(JSON.parse(row.setup)).toEqual({ external_application_id: APP, allowed_gps: false });
  });

  it('stores device, setup and push token under the SHA-256 of the token id, for the calling api user, with no customer', async () => {
    const created = await createToken(server, {
      device: { device_id: 'd-1', device_system: 'android', device_name: 'Pixel', device_type: 'phone' },
      setup: { language_id: 'cs', allowed_gps: true, allowed_notifications: false },
      external_application_id: APP,
      push_token: 'fcm-123',
    });
    const tokenId = created.body.data.token_id as string;
    const apiUser = server.app.node.db.prepare('SELECT id FROM api_users WHERE user_name = ?').get(demoCredentials.api_user) as { id: string };
    const row = tokenRow(server, tokenId)!;
    expect(row).toMatchObject({ id: sha256(tokenId), api_user_id: apiUser.id, push_token: 'fcm-123', customer_id: null, state: 1 });
    expect(JSON.parse(row.device)).toEqual({ device_id: 'd-1', device_system: 'android', device_name: 'Pixel', device_type: 'phone' });
    expect(JSON.parse(row.setup)).toEqual({ language_id: 'cs', allowed_gps: true, allowed_notifications: false, external_application_id: APP });
  });

  it('keeps the token id itself out of the database: tokens, change feed and outbox hold only its hash', async () => {
    const tokenId = (await createToken(server, { device: {}, setup: {}, external_application_id: APP })).body.data.token_id as string;
    const db = server.app.node.db;
    const like = `%${tokenId}%`;
    const hits = db
      .prepare(
        `SELECT (SELECT count(*) FROM tokens WHERE id LIKE ? OR device LIKE ? OR setup LIKE ?)
              + (SELECT count(*) FROM changes WHERE entity_id LIKE ? OR row LIKE ?)
              + (SELECT count(*) FROM outbox WHERE payload LIKE ? OR changes LIKE ?) AS n`,
      )
      .get(like, like, like, like, like, like, like) as { n: number };
    expect(hits.n).toBe(0);
    expect(tokenRow(server, tokenId)).toBeDefined();
  });

  it("without an application anywhere makes the token for the chain's one customer external application", async () => {
    const created = await createToken(server, { device: {}, setup: { language_id: 'en' } });
    expect(created.status).toBe(201);
    const row = tokenRow(server, created.body.data.token_id)!;
    expect(row.external_application_id).toBe(APP);
    expect(JSON.parse(row.setup)).toEqual({ language_id: 'en', external_application_id: APP });
  });

  it('without an application anywhere answers 400 required on external_application_id when the chain has several active ones, or none', async () => {
    const several = await startTestServer();
    try {
      addApplication(several, 'ab00000000000000000000a002');
      const count = () => (several.app.node.db.prepare('SELECT count(*) AS n FROM tokens').get() as { n: number }).n;
      const before = count();
      expect(invalidParams(await createToken(several, { device: {}, setup: { language_id: 'en' } }))).toEqual([
        expect.objectContaining({ name: 'external_application_id', reason: 'required' }),
      ]);
      several.app.node.writes.write(null, (tx) => {
        tx.update('external_applications', APP, { state: 0 });
        tx.update('external_applications', 'ab00000000000000000000a002', { state: 0 });
      });
      expect(invalidParams(await createToken(several, { device: {}, setup: {} }))).toEqual([
        expect.objectContaining({ name: 'external_application_id', reason: 'required' }),
      ]);
      expect(count()).toBe(before);
    } finally {
      await several.close();
    }
  });

  it('with an application that does not exist answers 400 not_found, at the top level or inside setup', async () => {
    for (const body of [
      { device: {}, setup: {}, external_application_id: UNKNOWN_ID },
      { device: {}, setup: { external_application_id: UNKNOWN_ID } },
    ]) {
      const response = await createToken(server, body);
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'external_application_id', reason: 'not_found', value: UNKNOWN_ID })]);
    }
  });

  it('without a device answers 400 required on device; without setup, required on setup', async () => {
    const noDevice = await createToken(server, { setup: { external_application_id: APP } });
    expect(invalidParams(noDevice)).toEqual([expect.objectContaining({ name: 'device', reason: 'required' })]);
    const noSetup = await createToken(server, { device: {}, external_application_id: APP });
    expect(invalidParams(noSetup)).toEqual([expect.objectContaining({ name: 'setup', reason: 'required' })]);
  });

  it('a rejected creation stores no token', async () => {
    const count = () => (server.app.node.db.prepare('SELECT count(*) AS n FROM tokens').get() as { n: number }).n;
    const before = count();
    await createToken(server, { device: {}, setup: {}, external_application_id: UNKNOWN_ID });
    await createToken(server, { setup: {}, external_application_id: APP });
    expect(count()).toBe(before);
  });

  it('an unknown api user answers 401, as does a missing Authorization header', async () => {
    const body = { device: {}, setup: {}, external_application_id: APP };
    const unknownUser = await createToken(server, body, basic('no-such-api-user', ''));
    expectError(unknownUser, 401, 'unauthorized_exception');
    expect(unknownUser.headers.get('www-authenticate')).toContain('Basic');
    expectError(await createToken(server, body, {}), 401, 'unauthorized_exception');
  });

  it('on the enterprise interface answers 403 interface_not_allowed_exception, even for a logged-in POS', async () => {
    const body = { device: {}, setup: {}, external_application_id: APP };
    for (const headers of [basic(demoCredentials.api_user, ''), await demoPosLogin(server)]) {
      const response = await call('POST', `${server.api('enterprise')}/tokens`, { headers, body });
      const error = expectError(response, 403, 'interface_not_allowed_exception');
      expect(error.error_data).toMatchObject({ invalid_resource_name: 'tokens' });
    }
  });

  it('the other token actions are refused on the enterprise interface too', async () => {
    const token = await demoToken(server);
    const pos = await demoPosLogin(server);
    const enterprise = `${server.api('enterprise')}/tokens/${token.tokenId}`;
    expectError(await call('PUT', enterprise, { headers: pos, body: { setup: {} } }), 403, 'interface_not_allowed_exception');
    expectError(await call('POST', `${enterprise}/actions/login`, { headers: pos, body: byCard() }), 403, 'interface_not_allowed_exception');
    expectError(await call('POST', `${enterprise}/actions/logout`, { headers: pos }), 403, 'interface_not_allowed_exception');
  });
});

describe('PUT /tokens/{token_id}', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 204 with no body and stores the new setup and push token, keeping the application', async () => {
    const token = await demoToken(server);
    const response = await updateToken(server, token.tokenId, token, {
      setup: { language_id: 'de', allowed_gps: true, allowed_notifications: true },
      push_token: 'apns-9',
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const row = tokenRow(server, token.tokenId)!;
    expect(JSON.parse(row.setup)).toEqual({ language_id: 'de', allowed_gps: true, allowed_notifications: true, external_application_id: APP });
    expect(row.push_token).toBe('apns-9');
    expect(row.external_application_id).toBe(APP);
  });

  it('replaces the whole setup, and keeps the push token when none is sent', async () => {
    const token = await demoToken(server);
    await updateToken(server, token.tokenId, token, { setup: { language_id: 'de', allowed_gps: true }, push_token: 'first' });
    expect((await updateToken(server, token.tokenId, token, { setup: { allowed_notifications: false } })).status).toBe(204);
    const row = tokenRow(server, token.tokenId)!;
    expect(JSON.parse(row.setup)).toEqual({ allowed_notifications: false, external_application_id: APP });
    expect(row.push_token).toBe('first');
  });

  it('moves the token to another existing application named in setup', async () => {
    const other = 'de00000000000000000000a2a2';
    addApplication(server, other);
    const token = await demoToken(server);
    expect((await updateToken(server, token.tokenId, token, { setup: { external_application_id: other } })).status).toBe(204);
    const row = tokenRow(server, token.tokenId)!;
    expect(row.external_application_id).toBe(other);
    expect(JSON.parse(row.setup)).toEqual({ external_application_id: other });
  });

  it('an application in setup that does not exist answers 400 not_found and changes nothing', async () => {
    const token = await demoToken(server);
    const before = tokenRow(server, token.tokenId)!;
    const response = await updateToken(server, token.tokenId, token, { setup: { external_application_id: UNKNOWN_ID, language_id: 'de' } });
    expect(invalidParams(response)).toEqual([
      expect.objectContaining({ name: 'setup.external_application_id', reason: 'not_found', value: UNKNOWN_ID }),
    ]);
    expect(tokenRow(server, token.tokenId)).toEqual(before);
  });

  it('without setup answers 400 required', async () => {
    const token = await demoToken(server);
    const response = await updateToken(server, token.tokenId, token, { push_token: 'x' });
    expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'setup', reason: 'required' })]);
  });

  it("another token's id in the path answers 403 and leaves that token alone", async () => {
    const mine = await demoToken(server);
    const theirs = await demoToken(server);
    const before = tokenRow(server, theirs.tokenId)!;
    const response = await updateToken(server, theirs.tokenId, mine, { setup: { language_id: 'de' }, push_token: 'hijack' });
    expectError(response, 403, 'forbidden_exception');
    expect(tokenRow(server, theirs.tokenId)).toEqual(before);
  });
});

describe('actions/login and actions/logout', () => {
  // A server per test: the throttle remembers failures per customer and per address in memory.
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  it('by card answers 200 with the customer id and makes the token a session of that customer', async () => {
    const token = await demoToken(server);
    expectError(await readJana(server, token), 403, 'forbidden_exception');
    const response = await login(server, token, byCard());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    expect(tokenRow(server, token.tokenId)!.customer_id).toBe(DEMO_IDS.customerJana);
    const read = await readJana(server, token);
    expect(read.status).toBe(200);
    expect(read.body.data.customer_id).toBe(DEMO_IDS.customerJana);
  });

  it('by e-mail answers 200 with the customer id, whatever the case of the address', async () => {
    for (const email of [demoCredentials.customer_email, demoCredentials.customer_email.toUpperCase()]) {
      const token = await demoToken(server);
      const response = await login(server, token, byEmail(demoCredentials.customer_password, email));
      expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    }
  });

  it('a wrong password answers 401 and the token stays without a customer', async () => {
    const token = await demoToken(server);
    for (const body of [byCard('wrong-password'), byEmail('wrong-password')]) {
      const response = await login(server, token, body);
      expectError(response, 401, 'unauthorized_exception');
      expect(response.body.error.detail).not.toContain(DEMO_IDS.customerJana);
    }
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
  });

  it('an unknown card or e-mail answers 401, the same as a wrong password', async () => {
    const token = await demoToken(server);
    const unknownCard = await login(server, token, { login_type: 'card', login_value: '9999999999999', password: 'x' });
    const unknownEmail = await login(server, token, { login_type: 'email', login_value: 'nobody@example.com', password: 'x' });
    const wrongPassword = await login(server, token, byCard('x'));
    for (const response of [unknownCard, unknownEmail, wrongPassword]) expectError(response, 401, 'unauthorized_exception');
    expect(unknownCard.body.error.detail).toBe(wrongPassword.body.error.detail);
    expect(unknownEmail.body.error.detail).toBe(wrongPassword.body.error.detail);
  });

  it('a blocked customer answers 403 with the right password, by card and by e-mail, and 401 with a wrong one; the token stays without a customer', async () => {
    server.app.node.writes.write(null, (tx) => tx.update('customers', DEMO_IDS.customerJana, { state: 0 }));
    const token = await demoToken(server);
    for (const body of [byCard(), byEmail()])
      expect(expectError(await login(server, token, body), 403, 'forbidden_exception').detail).toBe('The customer is blocked');
    expectError(await login(server, token, byCard('wrong-password')), 401, 'unauthorized_exception');
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
  });

  it('a customer who never set a password cannot log in', async () => {
    const token = await demoToken(server);
    expectError(await login(server, token, byEmail('anything', PETR_EMAIL)), 401, 'unauthorized_exception');
  });

  it('an invalid login_type answers 400 not_allowed_value', async () => {
    const token = await demoToken(server);
    const badType = await login(server, token, { login_type: 'phone', login_value: '123', password: 'x' });
    expect(invalidParams(badType)).toEqual([expect.objectContaining({ name: 'login_type', reason: 'not_allowed_value', value: 'phone' })]);
  });

  it('a missing login_type answers 400 required, not not_allowed_value', async () => {
    const token = await demoToken(server);
    const missing = await login(server, token, { login_value: '123', password: 'x' });
    expect(invalidParams(missing)).toEqual([expect.objectContaining({ name: 'login_type', reason: 'required' })]);
  });

  it('a missing login_value or password answers 400 required, an empty one empty', async () => {
    const token = await demoToken(server);
    const missing = await login(server, token, { login_type: 'card' });
    expect(invalidParams(missing).map((param) => [param.name, param.reason])).toEqual([
      ['login_value', 'required'],
      ['password', 'required'],
    ]);
    const empty = await login(server, token, { login_type: 'card', login_value: '  ', password: '' });
    expect(invalidParams(empty).map((param) => [param.name, param.reason])).toEqual([
      ['login_value', 'empty'],
      ['password', 'empty'],
    ]);
  });

  it("logging in on another token's path answers 403 and logs neither token in", async () => {
    const mine = await demoToken(server);
    const theirs = await demoToken(server);
    const response = await call('POST', `${server.api('customer')}/tokens/${theirs.tokenId}/actions/login`, {
      headers: mine.headers,
      body: byCard(),
    });
    expectError(response, 403, 'forbidden_exception');
    expect(tokenRow(server, mine.tokenId)!.customer_id).toBeNull();
    expect(tokenRow(server, theirs.tokenId)!.customer_id).toBeNull();
  });

  it('logout answers 204, clears the customer of the token and ends the session', async () => {
    const token = await demoToken(server);
    await login(server, token, byEmail());
    expect((await readJana(server, token)).status).toBe(200);
    const response = await logout(server, token.tokenId, token);
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
    expectError(await readJana(server, token), 403, 'forbidden_exception');
    // The token itself stays valid: the same app can log a customer in again.
    expect((await login(server, token, byCard())).status).toBe(200);
  });

  it('logout of a token with no customer answers 204 too', async () => {
    const token = await demoToken(server);
    expect((await logout(server, token.tokenId, token)).status).toBe(204);
  });

  it("logout on another token's path answers 403 and that token stays logged in", async () => {
    const mine = await demoToken(server);
    const theirs = await demoToken(server);
    await login(server, theirs, byCard());
    expectError(await logout(server, theirs.tokenId, mine), 403, 'forbidden_exception');
    expect(tokenRow(server, theirs.tokenId)!.customer_id).toBe(DEMO_IDS.customerJana);
  });
});

describe('a token no customer is logged in on', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('expires auth.anonymous_token_ttl_days after it was made; a session goes on, and logging out starts the time again', async () => {
    const clock = new TestClock(Date.UTC(2026, 2, 1, 9, 0, 0));
    server = await startTestServer({ clock, config: { 'auth.anonymous_token_ttl_days': 30 } });
    const anonymous = await demoToken(server);
    const session = await demoToken(server);
    expect((await login(server, session, byCard())).status).toBe(200);

    clock.advance(30 * DAY_MS - 1000);
    const other = await demoToken(server);
    expect((await readJana(server, session)).status).toBe(200);
    clock.advance(2000);
    const expired = expectError(await login(server, anonymous, byCard()), 401, 'unauthorized_exception');
    expect(expired.detail).toContain('expired');
    expect((await readJana(server, session)).status).toBe(200);
    expect((await login(server, other, byCard())).status).toBe(200);

    expect((await logout(server, session.tokenId, session)).status).toBe(204);
    // Thirty days old, but logged out just now: still a valid token, of no customer.
    expectError(await readJana(server, session), 403, 'forbidden_exception');
    clock.advance(30 * DAY_MS + 1000);
    expectError(await readJana(server, session), 401, 'unauthorized_exception');
    expectError(await login(server, session, byCard()), 401, 'unauthorized_exception');
  });
});

describe('failed customer logins are throttled', () => {
  let server: TestServer | undefined;
  async function start(options: TestServerOptions = {}): Promise<TestServer> {
    server = await startTestServer({ clock: new TestClock(Date.UTC(2026, 2, 1, 9, 0, 0)), ...options });
    return server;
  }
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('after five failures from one address the sixth attempt answers 429 with Retry-After, even with the right password', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectError(await login(target, token, byCard(`wrong-${attempt}`)), 401, 'unauthorized_exception');
    }
    const locked = await login(target, token, byCard());
    const error = expectError(locked, 429, 'too_many_requests_exception');
    // The clock stands still, so the first failure leaves the 900 s window in exactly 900 s.
    expect(locked.headers.get('retry-after')).toBe('900');
    expect(error.error_data.retry_after).toBe(900);
    expect(tokenRow(target, token.tokenId)!.customer_id).toBeNull();
  });

  it('four failures do not lock the customer out', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let attempt = 1; attempt <= 4; attempt += 1) await login(target, token, byCard(`wrong-${attempt}`));
    expect((await login(target, token, byCard())).status).toBe(200);
  });

  it('failures against one customer from many addresses lock out those addresses, and she still logs in from her own', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let address = 1; address <= 3; address += 1) {
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expectError(await login(target, token, byCard(`wrong-${attempt}`), `10.2.0.${address}`), 401, 'unauthorized_exception');
      }
      expectError(await login(target, token, byCard(), `10.2.0.${address}`), 429, 'too_many_requests_exception');
    }
    const own = await login(target, token, byCard(), '10.2.0.99');
    expect(own.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('changing the case of the e-mail does not escape the lockout of its customer from that address', async () => {
    const target = await start();
    const token = await demoToken(target);
    const variants = [
      'JANA.NOVAK@EXAMPLE.COM',
      'Jana.Novak@example.com',
      'jana.NOVAK@example.com',
      'JANA.novak@example.com',
      'jana.novak@EXAMPLE.com',
    ];
    for (const email of variants) expectError(await login(target, token, byEmail('wrong', email), '10.3.0.1'), 401, 'unauthorized_exception');
    expectError(await login(target, token, byEmail(), '10.3.0.1'), 429, 'too_many_requests_exception');
    // The address itself has failed five times of its ten: another customer's login from it is served.
    expectError(await login(target, token, byEmail('wrong', PETR_EMAIL), '10.3.0.1'), 401, 'unauthorized_exception');
  });

  it('failures by card and by e-mail from one address count against the same customer', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let attempt = 1; attempt <= 3; attempt += 1) await login(target, token, byCard('wrong'), '10.4.0.1');
    for (let attempt = 4; attempt <= 5; attempt += 1) await login(target, token, byEmail('wrong'), '10.4.0.1');
    expectError(await login(target, token, byEmail(), '10.4.0.1'), 429, 'too_many_requests_exception');
    expectError(await login(target, token, byCard(), '10.4.0.1'), 429, 'too_many_requests_exception');
  });

  it('failures under many logins from one address lock that address out for every login, past auth.login_failures_per_address', async () => {
    const target = await start();
    const token = await demoToken(target);
    const allowed = target.config.auth.login_failures_per_address;
    expect(allowed).toBeGreaterThan(target.config.auth.login_failures_allowed);
    for (let attempt = 1; attempt <= allowed; attempt += 1) {
      const guess = { login_type: 'card', login_value: `90000000000${String(attempt).padStart(2, '0')}`, password: 'guess' };
      expectError(await login(target, token, guess, '10.5.0.1'), 401, 'unauthorized_exception');
    }
    expectError(await login(target, token, byCard(), '10.5.0.1'), 429, 'too_many_requests_exception');
    expect((await login(target, token, byCard(), '10.5.0.2')).status).toBe(200);
  });

  it('the failures allowed an address follow auth.login_failures_per_address', async () => {
    const target = await start({ config: { 'auth.login_failures_per_address': 2 } });
    const token = await demoToken(target);
    expectError(await login(target, token, byCard('wrong'), '10.5.1.1'), 401, 'unauthorized_exception');
    expectError(await login(target, token, byEmail('wrong', PETR_EMAIL), '10.5.1.1'), 401, 'unauthorized_exception');
    expectError(await login(target, token, byCard(), '10.5.1.1'), 429, 'too_many_requests_exception');
  });

  it('a successful login forgives the customer her earlier failures from that address', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let attempt = 1; attempt <= 4; attempt += 1) await login(target, token, byCard('wrong'), '10.6.0.1');
    expect((await login(target, token, byCard(), '10.6.0.1')).status).toBe(200);
    for (let attempt = 5; attempt <= 8; attempt += 1) await login(target, token, byCard('wrong'), '10.6.0.1');
    expect((await login(target, token, byCard(), '10.6.0.1')).status).toBe(200);
  });

  it('a lockout ends once the failure window has passed', async () => {
    const target = await start();
    const token = await demoToken(target);
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(target, token, byCard(`wrong-${attempt}`));
    target.clock.advance(FAILURE_WINDOW_MS - 1000);
    const stillLocked = await login(target, token, byCard());
    expectError(stillLocked, 429, 'too_many_requests_exception');
    expect(stillLocked.headers.get('retry-after')).toBe('1');
    target.clock.advance(1000);
    const response = await login(target, token, byCard());
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('the number of failures allowed follows auth.login_failures_allowed', async () => {
    const target = await start({ config: { 'auth.login_failures_allowed': 2 } });
    const token = await demoToken(target);
    expectError(await login(target, token, byCard('wrong-1')), 401, 'unauthorized_exception');
    expectError(await login(target, token, byCard('wrong-2')), 401, 'unauthorized_exception');
    expectError(await login(target, token, byCard()), 429, 'too_many_requests_exception');
  });
});

interface OutboxRow {
  seq: number;
  kind: string;
  payload: string;
  changes: string;
}

/**
 * The row changes a step makes as the node hands them on (a hub in its change feed, a store in
 * the commands it queues), and the commands it queues.
 */
async function rowsAddedBy(server: TestServer, step: () => Promise<unknown>): Promise<{ changes: QueuedChange[]; outbox: OutboxRow[] }> {
  const db = server.app.node.db;
  const feedAfter = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM changes').pluck().get()!;
  const outboxAfter = lastOutboxSeq(server);
  await step();
  const fed = () =>
    // But the recommendation model's rows, which the node builds in the background.
    db
      .prepare<[number], QueuedChange & { row: string | null }>(
        "SELECT entity, entity_id, op, row FROM changes WHERE seq > ? AND entity NOT LIKE 'recommendation%' ORDER BY seq",
      )
      .all(feedAfter)
      .map((change) => ({ ...change, row: change.row === null ? null : (JSON.parse(change.row) as Record<string, unknown>) }));
  return {
    changes: server.config.mode === 'hub' ? fed() : queuedChanges(server, outboxAfter),
    outbox: db.prepare('SELECT seq, kind, payload, changes FROM outbox WHERE seq > ? ORDER BY seq').all(outboxAfter) as OutboxRow[],
  };
}

describe('token writes in the outbox (store mode)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  // A token stays at the node that made it (DESIGN §5 "Credentials stay at the hub"): its writes
  // change its row here and queue nothing for a hub.
  it('create writes the token here, with no customer, and queues no command', async () => {
    let tokenId = '';
    const added = await rowsAddedBy(server, async () => {
      tokenId = (await createToken(server, { device: { device_id: 'feed' }, setup: {}, external_application_id: APP })).body.data.token_id;
    });
    expect(added).toEqual({ changes: [], outbox: [] });
    expect(tokenRow(server, tokenId)).toMatchObject({ external_application_id: APP, customer_id: null });
  });

  it('update writes the new setup and push token here and queues no command', async () => {
    const token = await demoToken(server);
    const added = await rowsAddedBy(server, () => updateToken(server, token.tokenId, token, { setup: { language_id: 'sk' }, push_token: 'p' }));
    expect(added).toEqual({ changes: [], outbox: [] });
    expect(tokenRow(server, token.tokenId)).toMatchObject({
      push_token: 'p',
      setup: JSON.stringify({ language_id: 'sk', external_application_id: APP }),
    });
  });

  it('login names the customer on the token and logout clears it, here, queuing no command', async () => {
    const token = await demoToken(server);
    const loggedIn = await rowsAddedBy(server, () => login(server, token, byCard()));
    expect(loggedIn).toEqual({ changes: [], outbox: [] });
    expect(tokenRow(server, token.tokenId)!.customer_id).toBe(DEMO_IDS.customerJana);
    const loggedOut = await rowsAddedBy(server, () => logout(server, token.tokenId, token));
    expect(loggedOut).toEqual({ changes: [], outbox: [] });
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
  });

  it('refused writes queue nothing', async () => {
    const token = await demoToken(server);
    const other = await demoToken(server);
    const added = await rowsAddedBy(server, async () => {
      await createToken(server, { device: {}, setup: {}, external_application_id: UNKNOWN_ID });
      await updateToken(server, other.tokenId, token, { setup: {} });
      await login(server, token, byCard('wrong'), '10.9.0.1');
      await login(server, token, { login_type: 'phone', login_value: '1', password: 'x' });
      await logout(server, other.tokenId, token);
    });
    expect(added).toEqual({ changes: [], outbox: [] });
  });
});

describe('token writes on a hub', () => {
  let hub: TestServer;
  beforeAll(async () => {
    hub = await startTestServer({ config: { mode: 'hub' } });
  });
  afterAll(() => hub.close());

  it('are recorded in the change feed but queue no outbox command', async () => {
    let tokenId = '';
    const added = await rowsAddedBy(hub, async () => {
      const token = await demoToken(hub);
      tokenId = token.tokenId;
      expect((await updateToken(hub, token.tokenId, token, { setup: { language_id: 'en' } })).status).toBe(204);
      expect((await login(hub, token, byEmail())).status).toBe(200);
      expect((await logout(hub, token.tokenId, token)).status).toBe(204);
    });
    expect(added.changes.map((change) => [change.entity, change.entity_id, change.op])).toEqual([
      ['tokens', sha256(tokenId), 'insert'],
      ['tokens', sha256(tokenId), 'update'],
      ['tokens', sha256(tokenId), 'update'],
      ['tokens', sha256(tokenId), 'update'],
    ]);
    expect(added.outbox).toEqual([]);
    expect((hub.app.node.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(0);
  });
});

describe('POST /tokens is rate-limited', () => {
  let server: TestServer | undefined;
  const WINDOW_MS = 3_600 * 1000;
  async function start(config: Record<string, unknown>): Promise<TestServer> {
    server = await startTestServer({ clock: new TestClock(Date.UTC(2026, 2, 1, 9, 0, 0)), config });
    return server;
  }
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const body = { device: { device_id: 'loop' }, setup: { language_id: 'en' }, external_application_id: APP };
  const fromAddress = (target: TestServer, address: string) =>
    createToken(target, body, { ...basic(demoCredentials.api_user, ''), 'x-forwarded-for': address });

  it('beyond auth.tokens_per_address from one address answers 429 with Retry-After, stores no token, and another address is served', async () => {
    const target = await start({ 'auth.tokens_per_address': 3 });
    for (let call = 1; call <= 3; call += 1) expect((await fromAddress(target, '203.0.113.7')).status).toBe(201);
    const tokensBefore = target.app.node.db.prepare('SELECT count(*) AS n FROM tokens').get();
    const refused = await fromAddress(target, '203.0.113.7');
    expect(expectError(refused, 429, 'too_many_requests_exception').error_data.retry_after).toBe(3_600);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(target.app.node.db.prepare('SELECT count(*) AS n FROM tokens').get()).toEqual(tokensBefore);
    expect((await fromAddress(target, '203.0.113.8')).status).toBe(201);
    target.clock.advance(WINDOW_MS);
    expect((await fromAddress(target, '203.0.113.7')).status).toBe(201);
  });

  it('beyond auth.tokens_per_api_user from any addresses answers 429 with Retry-After', async () => {
    const target = await start({ 'auth.tokens_per_api_user': 4 });
    for (let call = 1; call <= 4; call += 1) expect((await fromAddress(target, `203.0.113.${call}`)).status).toBe(201);
    const refused = await fromAddress(target, '203.0.113.99');
    expectError(refused, 429, 'too_many_requests_exception');
    expect(refused.headers.get('retry-after')).toBe('3600');
  });
});

describe('tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('POST /tokens answers 201 with a token id, the application named at the top level or inside setup', async () => {
    for (const body of [
      { device: { device_id: 'a' }, setup: {}, external_application_id: APP },
      { device: { device_id: 'b' }, setup: { external_application_id: APP } },
    ]) {
      const response = await call('POST', `${server.api('customer')}/tokens`, { headers: basic(demoCredentials.api_user, ''), body });
      expect(response.status).toBe(201);
      expect(response.body.data.token_id).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('POST /tokens without an application, where the chain has two, answers required; with an unknown one not_found', async () => {
    server.app.node.writes.write(null, (tx) =>
      tx.insert('external_applications', { id: 'ab00000000000000000000a003', name: 'Second app', state: 1 }),
    );
    const missing = await call('POST', `${server.api('customer')}/tokens`, {
      headers: basic(demoCredentials.api_user, ''),
      body: { device: {}, setup: {} },
    });
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'external_application_id',
      reason: 'required',
    });
    const unknown = await call('POST', `${server.api('customer')}/tokens`, {
      headers: basic(demoCredentials.api_user, ''),
      body: { device: {}, setup: {}, external_application_id: 'ffffffffffffffffffffffffff' },
    });
    expect(expectError(unknown, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'external_application_id',
      reason: 'not_found',
    });
  });

  it('POST /tokens without a device answers required', async () => {
    const response = await call('POST', `${server.api('customer')}/tokens`, {
      headers: basic(demoCredentials.api_user, ''),
      body: { setup: { external_application_id: APP } },
    });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: 'device', reason: 'required' });
  });

  it('PUT /tokens/{id} stores the new setup and push token; another token in the path answers 403', async () => {
    const mine = await demoToken(server);
    const other = await demoToken(server);
    const update = await call('PUT', `${server.api('customer')}/tokens/${mine.tokenId}`, {
      headers: mine.headers,
      body: { setup: { language_id: 'cs', allowed_gps: true }, push_token: 'push-1' },
    });
    expect(update.status).toBe(204);
    const row = tokenRow(server, mine.tokenId)!;
    expect(JSON.parse(row.setup as string)).toMatchObject({ language_id: 'cs', allowed_gps: true, external_application_id: APP });
    expect(row.push_token).toBe('push-1');
    const foreign = await call('PUT', `${server.api('customer')}/tokens/${other.tokenId}`, { headers: mine.headers, body: { setup: {} } });
    expectError(foreign, 403, 'forbidden_exception');
  });

  it('login by card and by email answer the customer id; a wrong password or unknown card 401', async () => {
    const token = await demoToken(server);
    const url = `${server.api('customer')}/tokens/${token.tokenId}/actions/login`;
    const byCard = await call('POST', url, {
      headers: token.headers,
      body: { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password },
    });
    expect(byCard.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    const byEmail = await call('POST', url, {
      headers: token.headers,
      body: { login_type: 'email', login_value: demoCredentials.customer_email.toUpperCase(), password: demoCredentials.customer_password },
    });
    expect(byEmail.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    expectError(
      await call('POST', url, {
        headers: token.headers,
        body: { login_type: 'card', login_value: demoCredentials.customer_card, password: 'wrong' },
      }),
      401,
      'unauthorized_exception',
    );
    expectError(
      await call('POST', url, { headers: token.headers, body: { login_type: 'card', login_value: '999', password: 'x' } }),
      401,
      'unauthorized_exception',
    );
    const badType = await call('POST', url, { headers: token.headers, body: { login_type: 'phone', login_value: '1', password: 'x' } });
    expect(expectError(badType, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'login_type',
      reason: 'not_allowed_value',
    });
  });

  it('logout answers 204 and the token is no customer session any more', async () => {
    const token = await janaSession(server);
    expect(tokenRow(server, token.tokenId)!.customer_id).toBe(DEMO_IDS.customerJana);
    expect((await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers })).status).toBe(204);
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
    const authToken = await call('GET', `${server.api('customer')}/tokens/${token.tokenId}/actions/auth-token?external_application_id=${APP}`, {
      headers: token.headers,
    });
    expectError(authToken, 403, 'forbidden_exception');
  });

  it('token writes queue no command in store mode: a token stays at its node', async () => {
    const before = lastOutboxSeq(server);
    const token = await janaSession(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers });
    expect(outboxKindsSince(server, before)).toEqual([]);
    expect(tokenRow(server, token.tokenId)!.customer_id).toBeNull();
  });
});

describe('tokens in hub mode', () => {
  it('writes queue no outbox command on the hub', async () => {
    const hub = await startTestServer({ config: { mode: 'hub' } });
    try {
      await janaSession(hub);
      expect((hub.app.node.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(0);
    } finally {
      await hub.close();
    }
  });
});
