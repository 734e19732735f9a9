/**
 * auth-token and authentication-token-login (DESIGN §4): a logged-in customer's token asks
 * for a short one-time code (type 1 alphanumeric, type 2 numeric) for an application; another
 * token signs the same customer in with that code and its token_request_id, once, before
 * `auth.auth_token_ttl_seconds` runs out. Time is a TestClock, moved by the tests.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, demoToken, startTestServer, TestClock, type JsonResponse, type TestServer } from '../../support/server.js';
import { sha256 } from '../../support/credentials.js';
import { janaSession } from '../../support/customers-fixtures.js';
import { lastOutboxSeq, outboxKindsSince } from '../../support/outbox.js';

const APP = demoCredentials.external_application_id;
const UNKNOWN_ID = 'ffffffffffffffffffffffffff';
/** 2030-01-01 12:00:00 UTC; the demo node's time zone is UTC. */
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const TTL_MS = 300_000;

interface Token {
  tokenId: string;
  headers: Record<string, string>;
}

interface Issued {
  authentication_token: string;
  token_request_id: string;
  valid_to: string;
}

/** The code's hash under the key the node keeps beside its database (src/auth/node-key.ts). */
const keyedHash = (server: TestServer, code: string) =>
  createHmac('sha256', Buffer.from(readFileSync(join(server.dataDir, 'auth-code.key'), 'utf8').trim(), 'hex'))
    .update(code)
    .digest('hex');

async function loggedInToken(server: TestServer): Promise<Token> {
  const token = await demoToken(server);
  const login = await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: token.headers,
    body: { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password },
  });
  expect(login.status).toBe(200);
  return token;
}

function requestCode(
  server: TestServer,
  tokenId: string,
  headers: Record<string, string>,
  query: string,
  iface: 'customer' | 'enterprise' = 'customer',
): Promise<JsonResponse> {
  return call('GET', `${server.api(iface)}/tokens/${tokenId}/actions/auth-token${query}`, { headers });
}

async function issue(server: TestServer, token: Token, tokenType = '1'): Promise<Issued> {
  const response = await requestCode(server, token.tokenId, token.headers, `?external_application_id=${APP}&token_type=${tokenType}`);
  expect(response.status).toBe(200);
  // A login code is a credential: not to be kept by a cache on the way.
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.body.data as Issued;
}

function redeem(server: TestServer, token: Token, body: Record<string, unknown>): Promise<JsonResponse> {
  return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/authentication-token-login`, { headers: token.headers, body });
}

function customerOf(server: TestServer, token: Token): string | null {
  return (server.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').get(sha256(token.tokenId)) as { customer_id: string | null })
    .customer_id;
}

function reasonOf(response: JsonResponse): string {
  const params = expectError(response, 400, 'invalid_params_exception').error_data.invalid_params;
  expect(params).toHaveLength(1);
  return params[0].reason;
}

/** A code of the same type that is not `code` ('2' and '3' are in both alphabets). */
function otherCode(code: string): string {
  return (code[0] === '2' ? '3' : '2') + code.slice(1);
}

describe('GET /tokens/{token_id}/actions/auth-token', () => {
  let server: TestServer;
  let jana: Token;
  beforeAll(async () => {
    server = await startTestServer({ clock: new TestClock(NOW) });
    jana = await loggedInToken(server);
  });
  afterAll(() => server.close());

  it('type 1 answers six alphanumeric characters with a token_request_id and valid_to', async () => {
    const response = await requestCode(server, jana.tokenId, jana.headers, `?external_application_id=${APP}&token_type=1`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data).sort()).toEqual(['authentication_token', 'token', 'token_request_id', 'valid_to']);
    expect(response.body.data.authentication_token).toMatch(/^[A-Z0-9]{6}$/);
    expect(response.body.data.token_request_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries the code under token too, as clients generated from the 2021 file read it, and that code signs in', async () => {
    const response = await requestCode(server, jana.tokenId, jana.headers, `?external_application_id=${APP}&token_type=2`);
    expect(response.body.data.token).toBe(response.body.data.authentication_token);
    const login = await redeem(server, await demoToken(server), {
      token: response.body.data.token,
      token_request_id: response.body.data.token_request_id,
    });
    expect(login.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('type 2 answers six digits', async () => {
    for (let n = 0; n < 5; n += 1) expect((await issue(server, jana, '2')).authentication_token).toMatch(/^\d{6}$/);
  });

  it('without token_type answers a type 1 code', async () => {
    const response = await requestCode(server, jana.tokenId, jana.headers, `?external_application_id=${APP}`);
    expect(response.status).toBe(200);
    expect(response.body.data.authentication_token).toMatch(/^[A-Z0-9]{6}$/);
  });

  it('valid_to is the time of issue plus auth.auth_token_ttl_seconds, as YYYY-MM-DD HH:MM:SS', async () => {
    expect((await issue(server, jana)).valid_to).toBe('2030-01-01 12:05:00');
  });

  it('each request answers its own token_request_id', async () => {
    const first = await issue(server, jana);
    const second = await issue(server, jana);
    expect(first.token_request_id).not.toBe(second.token_request_id);
  });

  it("stores only the hash of the code under the node's key, and queues no command: a code never leaves the node that made it", async () => {
    const db = server.app.node.db;
    const outboxBefore = (db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM outbox').get() as { seq: number }).seq;
    const issued = await issue(server, jana, '2');
    const row = db.prepare('SELECT * FROM auth_tokens WHERE token_request_id = ?').get(issued.token_request_id) as Record<string, unknown>;
    expect(row).toMatchObject({
      token_id: sha256(jana.tokenId),
      customer_id: DEMO_IDS.customerJana,
      external_application_id: APP,
      value_hash: keyedHash(server, issued.authentication_token),
      expires_at: new Date(NOW + TTL_MS).toISOString(),
      used_at: null,
    });
    // Unkeyed, trying the million six-digit codes would find it in a second.
    expect(row.value_hash).not.toBe(sha256(issued.authentication_token));
    expect(Object.values(row)).not.toContain(issued.authentication_token);
    expect(db.prepare('SELECT kind FROM outbox WHERE seq > ?').all(outboxBefore)).toEqual([]);
  });

  it('a token with no customer logged in answers 403', async () => {
    const anonymous = await demoToken(server);
    expectError(
      await requestCode(server, anonymous.tokenId, anonymous.headers, `?external_application_id=${APP}&token_type=1`),
      403,
      'forbidden_exception',
    );
  });

  it('a token whose customer logged out answers 403', async () => {
    const token = await loggedInToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers });
    expectError(await requestCode(server, token.tokenId, token.headers, `?external_application_id=${APP}`), 403, 'forbidden_exception');
  });

  it("another token's id in the path answers 403, even a logged-in one", async () => {
    const anonymous = await demoToken(server);
    expectError(await requestCode(server, jana.tokenId, anonymous.headers, `?external_application_id=${APP}`), 403, 'forbidden_exception');
  });

  it('an application that does not exist answers 400 not_found', async () => {
    const response = await requestCode(server, jana.tokenId, jana.headers, `?external_application_id=${UNKNOWN_ID}&token_type=2`);
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'external_application_id', reason: 'not_found', value: UNKNOWN_ID }),
    ]);
  });

  it('a missing external_application_id answers 400 required; a token_type other than 1 or 2 not_allowed_value', async () => {
    const missing = await requestCode(server, jana.tokenId, jana.headers, '?token_type=1');
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'external_application_id', reason: 'required' }),
    ]);
    const badType = await requestCode(server, jana.tokenId, jana.headers, `?external_application_id=${APP}&token_type=3`);
    expect(expectError(badType, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'token_type', reason: 'not_allowed_value', value: '3' }),
    ]);
  });

  it('is served on the enterprise interface to a POS with a Bearer token, for any logged-in token', async () => {
    const pos = await demoPosLogin(server);
    const response = await requestCode(server, jana.tokenId, pos, `?external_application_id=${APP}&token_type=2`, 'enterprise');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      authentication_token: expect.stringMatching(/^\d{6}$/),
      token: response.body.data.authentication_token,
      token_request_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      valid_to: '2030-01-01 12:05:00',
    });
    // The code signs Jana in, like one her own token asked for.
    const other = await demoToken(server);
    const login = await redeem(server, other, {
      token: response.body.data.authentication_token,
      token_request_id: response.body.data.token_request_id,
    });
    expect(login.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('on the enterprise interface: no Bearer answers 401, a token without a customer 403, a token that does not exist 400 not_found', async () => {
    const pos = await demoPosLogin(server);
    expectError(await requestCode(server, jana.tokenId, {}, `?external_application_id=${APP}`, 'enterprise'), 401, 'unauthorized_exception');
    const anonymous = await demoToken(server);
    expectError(await requestCode(server, anonymous.tokenId, pos, `?external_application_id=${APP}`, 'enterprise'), 403, 'forbidden_exception');
    const unknown = await requestCode(server, 'f'.repeat(40), pos, `?external_application_id=${APP}`, 'enterprise');
    expect(expectError(unknown, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'token_id',
      reason: 'not_found',
    });
  });
});

describe('POST /tokens/{token_id}/actions/authentication-token-login', () => {
  let server: TestServer;
  let clock: TestClock;
  let jana: Token;
  beforeAll(async () => {
    clock = new TestClock(NOW);
    server = await startTestServer({ clock });
    jana = await loggedInToken(server);
  });
  afterAll(() => server.close());

  it('signs another token in as the customer of the code and answers 200 with the customer id', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    const response = await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    expect(customerOf(server, other)).toBe(DEMO_IDS.customerJana);
    // The other token is now a session of Jana's: it reads her record.
    const read = await call('GET', `${server.api('customer')}/customers/${DEMO_IDS.customerJana}`, { headers: other.headers });
    expect(read.status).toBe(200);
  });

  it('a code of a customer blocked since it was issued answers 403 and signs nobody in', async () => {
    const issued = await issue(server, jana, '2');
    const block = (state: number) => server.app.node.writes.write(null, (tx) => tx.update('customers', DEMO_IDS.customerJana, { state }));
    block(0);
    try {
      const other = await demoToken(server);
      const response = await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id });
      expect(expectError(response, 403, 'forbidden_exception').detail).toBe('The customer is blocked');
      expect(customerOf(server, other)).toBeNull();
    } finally {
      block(1);
    }
  });

  it('a type 1 code is accepted in lower case too', async () => {
    const issued = await issue(server, jana, '1');
    const response = await redeem(server, await demoToken(server), {
      token: issued.authentication_token.toLowerCase(),
      token_request_id: issued.token_request_id,
    });
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('a second use answers 400 already_used, also from the token that used it', async () => {
    const issued = await issue(server, jana, '2');
    const first = await demoToken(server);
    const body = { token: issued.authentication_token, token_request_id: issued.token_request_id };
    expect((await redeem(server, first, body)).status).toBe(200);
    const late = await demoToken(server);
    expect(reasonOf(await redeem(server, late, body))).toBe('already_used');
    expect(customerOf(server, late)).toBeNull();
    expect(reasonOf(await redeem(server, first, body))).toBe('already_used');
  });

  it('five wrong codes void the request: the sixth try answers 429, even with the right code', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect(
        reasonOf(await redeem(server, other, { token: otherCode(issued.authentication_token), token_request_id: issued.token_request_id })),
      ).toBe('not_found');
    }
    const locked = await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(locked.status).toBe(429);
    expect(locked.body.error.exception).toBe('too_many_requests_exception');
    expect(customerOf(server, other)).toBeNull();
  });

  it('200 parallel wrong codes for one request are checked at most five times; the rest, and then the right code, answer 429', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, attempt) =>
        redeem(server, other, {
          token: String((Number(issued.authentication_token) + 1 + attempt) % 1_000_000).padStart(6, '0'),
          token_request_id: issued.token_request_id,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(195);
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
    expect((await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id })).status).toBe(429);
    expect(customerOf(server, other)).toBeNull();
  });

  it('a wrong code answers 400 not_found and leaves the right one usable', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    const wrong = await redeem(server, other, { token: otherCode(issued.authentication_token), token_request_id: issued.token_request_id });
    expect(reasonOf(wrong)).toBe('not_found');
    expect(customerOf(server, other)).toBeNull();
    expect((await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id })).status).toBe(200);
  });

  it("a right code with another request's token_request_id answers 400 not_found", async () => {
    const first = await issue(server, jana, '2');
    // Two codes may coincide by chance; only a differing pair shows the request id is checked.
    let second = await issue(server, jana, '2');
    while (second.authentication_token === first.authentication_token) second = await issue(server, jana, '2');
    const other = await demoToken(server);
    expect(reasonOf(await redeem(server, other, { token: first.authentication_token, token_request_id: second.token_request_id }))).toBe('not_found');
    expect(reasonOf(await redeem(server, other, { token: first.authentication_token, token_request_id: 'f'.repeat(64) }))).toBe('not_found');
    expect(customerOf(server, other)).toBeNull();
  });

  it('is still accepted one second before auth.auth_token_ttl_seconds runs out', async () => {
    const issued = await issue(server, jana, '1');
    clock.advance(TTL_MS - 1000);
    const response = await redeem(server, await demoToken(server), { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('once auth.auth_token_ttl_seconds has passed it answers 400 expired', async () => {
    const issued = await issue(server, jana, '1');
    clock.advance(TTL_MS);
    const other = await demoToken(server);
    expect(reasonOf(await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id }))).toBe('expired');
    expect(customerOf(server, other)).toBeNull();
  });

  it('missing token or token_request_id answers 400 required', async () => {
    const other = await demoToken(server);
    const response = await redeem(server, other, {});
    expect(
      expectError(response, 400, 'invalid_params_exception').error_data.invalid_params.map((param: { name: string; reason: string }) => [
        param.name,
        param.reason,
      ]),
    ).toEqual([
      ['token', 'required'],
      ['token_request_id', 'required'],
    ]);
  });

  it("a login on another token's path answers 403 and does not use up the code", async () => {
    const issued = await issue(server, jana, '2');
    const mine = await demoToken(server);
    const theirs = await demoToken(server);
    const body = { token: issued.authentication_token, token_request_id: issued.token_request_id };
    const response = await call('POST', `${server.api('customer')}/tokens/${theirs.tokenId}/actions/authentication-token-login`, {
      headers: mine.headers,
      body,
    });
    expectError(response, 403, 'forbidden_exception');
    expect((await redeem(server, mine, body)).status).toBe(200);
  });

  it('is refused on the enterprise interface', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    const response = await call('POST', `${server.api('enterprise')}/tokens/${other.tokenId}/actions/authentication-token-login`, {
      headers: await demoPosLogin(server),
      body: { token: issued.authentication_token, token_request_id: issued.token_request_id },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
  });

  it('a login marks the code used and signs the token in, here, queuing no command', async () => {
    const issued = await issue(server, jana, '2');
    const other = await demoToken(server);
    const before = lastOutboxSeq(server);
    expect((await redeem(server, other, { token: issued.authentication_token, token_request_id: issued.token_request_id })).status).toBe(200);
    const authTokenId = (
      server.app.node.db.prepare('SELECT id FROM auth_tokens WHERE token_request_id = ?').get(issued.token_request_id) as { id: string }
    ).id;
    const db = server.app.node.db;
    expect(db.prepare('SELECT used_at FROM auth_tokens WHERE id = ?').pluck().get(authTokenId)).not.toBeNull();
    expect(db.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256(other.tokenId))).toBe(DEMO_IDS.customerJana);
    expect(outboxKindsSince(server, before)).toEqual([]);
  });
});

describe('auth-token on a hub', () => {
  let hub: TestServer;
  beforeAll(async () => {
    hub = await startTestServer({ config: { mode: 'hub', 'auth.auth_token_ttl_seconds': 60 }, clock: new TestClock(NOW) });
  });
  afterAll(() => hub.close());

  it('issues and signs in without queueing commands, with the configured lifetime', async () => {
    const jana = await loggedInToken(hub);
    const issued = await issue(hub, jana, '2');
    expect(issued.valid_to).toBe('2030-01-01 12:01:00');
    expect((await redeem(hub, await demoToken(hub), { token: issued.authentication_token, token_request_id: issued.token_request_id })).status).toBe(
      200,
    );
    expect(hub.app.node.db.prepare('SELECT count(*) AS n FROM outbox').get()).toEqual({ n: 0 });
  });
});

describe('auth-token on a store with its writer thread', () => {
  let store: TestServer;
  beforeAll(async () => {
    store = await startTestServer({ writerThread: true });
  });
  afterAll(() => store.close());

  it('issues a code, which the GET stores, on the thread that writes, and signs in with it', async () => {
    const jana = await loggedInToken(store);
    const issued = await issue(store, jana, '2');
    const signedIn = await redeem(store, await demoToken(store), { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(signedIn.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });
});

describe('auth-token', () => {
  let server: TestServer;
  const clock = new TestClock();
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());

  const issue = (token: { tokenId: string; headers: Record<string, string> }, type: string) =>
    call('GET', `${server.api('customer')}/tokens/${token.tokenId}/actions/auth-token?external_application_id=${APP}&token_type=${type}`, {
      headers: token.headers,
    });
  const redeem = (token: { tokenId: string; headers: Record<string, string> }, body: Record<string, unknown>) =>
    call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/authentication-token-login`, { headers: token.headers, body });

  it('type 1 is six alphanumeric characters, type 2 six digits, each with a request id and validity', async () => {
    const token = await janaSession(server);
    const alphanumeric = await issue(token, '1');
    expect(alphanumeric.body.data.authentication_token).toMatch(/^[A-Z0-9]{6}$/);
    const numeric = await issue(token, '2');
    expect(numeric.body.data).toMatchObject({
      authentication_token: expect.stringMatching(/^\d{6}$/),
      token_request_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      valid_to: expect.any(String),
    });
  });

  it('an unknown application answers 400 not_found', async () => {
    const token = await janaSession(server);
    const response = await call(
      'GET',
      `${server.api('customer')}/tokens/${token.tokenId}/actions/auth-token?external_application_id=ffffffffffffffffffffffffff`,
      { headers: token.headers },
    );
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'external_application_id',
      reason: 'not_found',
    });
  });

  it('signs another token in once; a second use answers already_used, a wrong code not_found', async () => {
    const issued = (await issue(await janaSession(server), '2')).body.data;
    const other = await demoToken(server);
    const wrongCode = issued.authentication_token === '000000' ? '111111' : '000000';
    const wrong = await redeem(other, { token: wrongCode, token_request_id: issued.token_request_id });
    expect(expectError(wrong, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_found');
    const first = await redeem(other, { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(first.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    const again = await redeem(await demoToken(server), { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(expectError(again, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('already_used');
  });

  it('a code past auth.auth_token_ttl_seconds answers expired', async () => {
    const issued = (await issue(await janaSession(server), '1')).body.data;
    clock.advance(301_000);
    const late = await redeem(await demoToken(server), { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(expectError(late, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('expired');
  });

  it('is also served on the enterprise interface, for a POS holding a Bearer token', async () => {
    const token = await janaSession(server);
    const response = await call(
      'GET',
      `${server.api('enterprise')}/tokens/${token.tokenId}/actions/auth-token?external_application_id=${APP}&token_type=2`,
      {
        headers: await demoPosLogin(server),
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.authentication_token).toMatch(/^\d{6}$/);
  });
});
