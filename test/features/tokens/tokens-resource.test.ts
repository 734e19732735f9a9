import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, TestClock, type TestServer } from '../../support/server.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp.js';

const APP = demoCredentials.external_application_id;

async function loggedInToken(server: TestServer) {
  const token = await demoToken(server);
  const login = await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: token.headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  expect(login.status).toBe(200);
  return token;
}

function tokenRow(server: TestServer, tokenId: string) {
  return server.app.node.db.prepare('SELECT * FROM tokens WHERE id = ?').get(createHash('sha256').update(tokenId).digest('hex')) as Record<
    string,
    unknown
  >;
}

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
    const row = tokenRow(server, mine.tokenId);
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
    const token = await loggedInToken(server);
    expect(tokenRow(server, token.tokenId).customer_id).toBe(DEMO_IDS.customerJana);
    expect((await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers })).status).toBe(204);
    expect(tokenRow(server, token.tokenId).customer_id).toBeNull();
    const authToken = await call('GET', `${server.api('customer')}/tokens/${token.tokenId}/actions/auth-token?external_application_id=${APP}`, {
      headers: token.headers,
    });
    expectError(authToken, 403, 'forbidden_exception');
  });

  it('each token write adds one change-feed row per changed record and one outbox command in store mode', async () => {
    const count = (table: string) => (server.app.node.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const before = { changes: count('changes'), outbox: count('outbox') };
    const token = await loggedInToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers });
    expect({ changes: count('changes') - before.changes, outbox: count('outbox') - before.outbox }).toEqual({ changes: 3, outbox: 3 });
    const kinds = server.app.node.db.prepare('SELECT kind FROM outbox ORDER BY seq DESC LIMIT 3').all() as { kind: string }[];
    expect(kinds.map((row) => row.kind).reverse()).toEqual(['tokens.create', 'tokens.login', 'tokens.logout']);
  });
});

describe('tokens in hub mode', () => {
  it('writes queue no outbox command on the hub', async () => {
    const hub = await startTestServer({ config: { mode: 'hub' } });
    try {
      await loggedInToken(hub);
      expect((hub.app.node.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(0);
    } finally {
      await hub.close();
    }
  });
});

describe('social-network-login', () => {
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-keys-'));
  let server: TestServer;
  let privateKey: CryptoKey;
  let pemPrivateKey: CryptoKey;

  beforeAll(async () => {
    const jwks = await generateKeyPair('RS256');
    privateKey = jwks.privateKey;
    writeFileSync(join(folder, 'google.jwks.json'), JSON.stringify({ keys: [{ ...(await exportJWK(jwks.publicKey)), kid: 'k1', alg: 'RS256' }] }));
    const pem = await generateKeyPair('ES256');
    pemPrivateKey = pem.privateKey;
    writeFileSync(join(folder, 'apple.pem'), await exportSPKI(pem.publicKey));
    server = await startTestServer({
      config: {
        social_networks: {
          google: { keys_file: join(folder, 'google.jwks.json'), issuer: 'https://accounts.example', audience: 'loyalty-app' },
          apple: { keys_file: join(folder, 'apple.pem'), issuer: 'https://accounts.example', audience: 'loyalty-app' },
        },
      },
    });
  });
  afterAll(() => server.close());

  const sign = (
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; alg?: string; issuer?: string; audience?: string; expires?: string } = {},
  ) =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: 'k1' })
      .setIssuer(options.issuer ?? 'https://accounts.example')
      .setAudience(options.audience ?? 'loyalty-app')
      .setIssuedAt()
      .setExpirationTime(options.expires ?? '5m')
      .sign(options.key ?? privateKey);

  const socialLogin = async (networkId: string, jwt: string) => {
    const token = await demoToken(server);
    return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/social-network-login`, {
      headers: token.headers,
      body: { social_network_credentials: { social_network_id: networkId, social_network_token: jwt } },
    });
  };

  it('a token signed by a key of the network JWKS logs the customer with that e-mail in', async () => {
    const response = await socialLogin('google', await sign({ email: demoCredentials.customer_email }));
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('a token verified against a PEM public key logs the customer in too', async () => {
    const response = await socialLogin('apple', await sign({ email: demoCredentials.customer_email }, { key: pemPrivateKey, alg: 'ES256' }));
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('a bad signature, an expired token, a wrong audience or issuer answers 401', async () => {
    const other = (await generateKeyPair('RS256')).privateKey;
    for (const jwt of [
      await sign({ email: demoCredentials.customer_email }, { key: other }),
      await sign({ email: demoCredentials.customer_email }, { expires: '-1m' }),
      await sign({ email: demoCredentials.customer_email }, { audience: 'someone-else' }),
      await sign({ email: demoCredentials.customer_email }, { issuer: 'https://evil.example' }),
    ]) {
      expectError(await socialLogin('google', jwt), 401, 'unauthorized_exception');
    }
  });

  it('an unknown network answers 400 not_found; a verified e-mail of no customer too', async () => {
    const unknownNetwork = await socialLogin('myspace', await sign({ email: demoCredentials.customer_email }));
    expect(expectError(unknownNetwork, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ reason: 'not_found' });
    const nobody = await socialLogin('google', await sign({ email: 'nobody@example.com' }));
    expect(expectError(nobody, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      reason: 'not_found',
      value: 'nobody@example.com',
    });
  });
});

describe('send-password-setup-email', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(() => smtp.close());

  const request = async (server: TestServer, email: string) => {
    const token = await demoToken(server);
    return call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: token.headers,
      body: { email },
    });
  };

  it('sends the setup link through the configured SMTP server', async () => {
    const server = await startTestServer({
      config: { 'mail.smtp_url': `${smtp.url}?ignoreTLS=true`, 'mail.password_setup_url': 'https://shop.example/set-password' },
    });
    try {
      expect((await request(server, demoCredentials.customer_email)).status).toBe(204);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual([demoCredentials.customer_email]);
      const body = smtp.received[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(body).toMatch(/https:\/\/shop\.example\/set-password\?token=[0-9a-f]{64}/);
    } finally {
      await server.close();
    }
  });

  it('without SMTP writes the message to the spool folder', async () => {
    const server = await startTestServer();
    try {
      expect((await request(server, demoCredentials.customer_email)).status).toBe(204);
      const spool = join(server.dataDir, 'mail-spool');
      const files = readdirSync(spool);
      expect(files).toHaveLength(1);
      expect(readFileSync(join(spool, files[0]!), 'utf8')).toContain(`To: ${demoCredentials.customer_email}`);
    } finally {
      await server.close();
    }
  });

  it('a store with a hub queues the mail as a command and sends nothing itself', async () => {
    const server = await startTestServer({ config: { 'hub.url': 'http://127.0.0.1:9', 'mail.smtp_url': `${smtp.url}?ignoreTLS=true` } });
    const sentBefore = smtp.received.length;
    try {
      expect((await request(server, demoCredentials.customer_email)).status).toBe(204);
      expect(smtp.received.length).toBe(sentBefore);
      const queued = server.app.node.db.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'tokens.send-password-setup-email'").get() as {
        n: number;
      };
      expect(queued.n).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an unknown e-mail answers 204 and sends nothing, a malformed one invalid_value_format, an unreachable SMTP server 503', async () => {
    const server = await startTestServer({ config: { 'mail.smtp_url': 'smtp://127.0.0.1:9?ignoreTLS=true' } });
    try {
      expect((await request(server, 'nobody@example.com')).status).toBe(204);
      expect(expectError(await request(server, 'not-an-email'), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
        name: 'email',
        reason: 'invalid_value_format',
      });
      expectError(await request(server, demoCredentials.customer_email), 503, 'service_unavailable_exception');
    } finally {
      await server.close();
    }
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
    const token = await loggedInToken(server);
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
    const token = await loggedInToken(server);
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
    const issued = (await issue(await loggedInToken(server), '2')).body.data;
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
    const issued = (await issue(await loggedInToken(server), '1')).body.data;
    clock.advance(301_000);
    const late = await redeem(await demoToken(server), { token: issued.authentication_token, token_request_id: issued.token_request_id });
    expect(expectError(late, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('expired');
  });

  it('is also served on the enterprise interface, for a POS holding a Bearer token', async () => {
    const token = await loggedInToken(server);
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
