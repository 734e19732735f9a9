/**
 * social-network-login (DESIGN §4): the provider's token is a JWT verified offline against
 * the keys configured for the network — a JWKS file or a PEM public key file — and names
 * the customer by e-mail. The keys are made here, per run, and written to a temp folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoToken, startTestServer, type JsonResponse, type TestServer } from '../../support/server.js';
import { sha256 } from '../../support/credentials.js';
import { lastOutboxSeq, queuedChanges } from '../../support/outbox.js';

const ISSUER = 'https://accounts.example.test';
const AUDIENCE = 'loyalty-app-client-id';
const JANA = demoCredentials.customer_email;

interface Signer {
  key: CryptoKey;
  alg: string;
  kid?: string;
}

interface Claims {
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch; defaults to ten minutes from now. */
  expires?: number;
}

/** A provider's ID token: RS256/ES256 signed, with issuer, audience, issue and expiry times; the address verified unless the payload says. */
function sign(signer: Signer, payload: JWTPayload, claims: Claims = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email_verified: true, ...payload })
    .setProtectedHeader({ alg: signer.alg, ...(signer.kid ? { kid: signer.kid } : {}) })
    .setIssuer(claims.issuer ?? ISSUER)
    .setAudience(claims.audience ?? AUDIENCE)
    .setIssuedAt(now - 60)
    .setExpirationTime(claims.expires ?? now + 600)
    .sign(signer.key);
}

describe('social-network-login', () => {
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-social-keys-'));
  let server: TestServer;
  /** Signs with the first key of the google JWKS. */
  let google: Signer;
  /** Signs with the second key of the google JWKS (a provider rotating keys lists both). */
  let googleRotated: Signer;
  /** Signs with the key whose public half is the apple PEM file. */
  let apple: Signer;
  /** A key nobody configured, announcing google's kid. */
  let impostor: Signer;
  let applePem: string;
  /** Signs for a network that names the e-mail in another claim. */
  let corporateSigner: Signer;

  beforeAll(async () => {
    const first = await generateKeyPair('RS256');
    const second = await generateKeyPair('RS256');
    const jwks = {
      keys: [
        { ...(await exportJWK(first.publicKey)), kid: 'google-1', alg: 'RS256', use: 'sig' },
        { ...(await exportJWK(second.publicKey)), kid: 'google-2', alg: 'RS256', use: 'sig' },
      ],
    };
    writeFileSync(join(folder, 'google.jwks.json'), JSON.stringify(jwks));
    google = { key: first.privateKey, alg: 'RS256', kid: 'google-1' };
    googleRotated = { key: second.privateKey, alg: 'RS256', kid: 'google-2' };

    const pem = await generateKeyPair('ES256');
    applePem = await exportSPKI(pem.publicKey);
    writeFileSync(join(folder, 'apple.pem'), applePem);
    apple = { key: pem.privateKey, alg: 'ES256' };

    impostor = { key: (await generateKeyPair('RS256')).privateKey, alg: 'RS256', kid: 'google-1' };

    const corporate = await generateKeyPair('RS256');
    writeFileSync(
      join(folder, 'corporate.jwks.json'),
      JSON.stringify({ keys: [{ ...(await exportJWK(corporate.publicKey)), kid: 'c1', alg: 'RS256' }] }),
    );
    corporateSigner = { key: corporate.privateKey, alg: 'RS256', kid: 'c1' };

    server = await startTestServer({
      config: {
        social_networks: {
          google: { keys_file: join(folder, 'google.jwks.json'), issuer: ISSUER, audience: AUDIENCE },
          apple: { keys_file: join(folder, 'apple.pem'), issuer: ISSUER, audience: AUDIENCE },
          corporate: { keys_file: join(folder, 'corporate.jwks.json'), issuer: ISSUER, audience: AUDIENCE, email_claim: 'preferred_email' },
        },
      },
    });
  });

  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function socialLogin(networkId: string, jwt: string, token?: { tokenId: string; headers: Record<string, string> }): Promise<JsonResponse> {
    const target = token ?? (await demoToken(server));
    return call('POST', `${server.api('customer')}/tokens/${target.tokenId}/actions/social-network-login`, {
      headers: target.headers,
      body: { social_network_credentials: { social_network_id: networkId, social_network_token: jwt } },
    });
  }

  const customerOf = (tokenId: string) =>
    (server.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').get(sha256(tokenId)) as { customer_id: string | null }).customer_id;

  it('a JWT signed by a key of the JWKS file logs in the customer its e-mail claim names', async () => {
    const token = await demoToken(server);
    const response = await socialLogin('google', await sign(google, { sub: 'g-123', email: JANA, email_verified: true }), token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    expect(customerOf(token.tokenId)).toBe(DEMO_IDS.customerJana);
  });

  it('a JWT signed by another key of the same JWKS is found by its kid', async () => {
    const response = await socialLogin('google', await sign(googleRotated, { email: JANA }));
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('a JWT verified against a PEM public key file logs the customer in too', async () => {
    const response = await socialLogin('apple', await sign(apple, { email: JANA }));
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('the e-mail of the token matches the customer whatever its letter case', async () => {
    const response = await socialLogin('google', await sign(google, { email: JANA.toUpperCase() }));
    expect(response.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
  });

  it('reads the e-mail from the claim the network is configured with', async () => {
    const named = await socialLogin('corporate', await sign(corporateSigner, { preferred_email: JANA, email: 'someone.else@example.com' }));
    expect(named.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    const onlyEmail = await socialLogin('corporate', await sign(corporateSigner, { email: JANA }));
    expectError(onlyEmail, 401, 'unauthorized_exception');
  });

  it('a JWT whose signature does not verify answers 401 and logs nobody in', async () => {
    const token = await demoToken(server);
    expectError(await socialLogin('google', await sign(impostor, { email: JANA }), token), 401, 'unauthorized_exception');
    expect(customerOf(token.tokenId)).toBeNull();
  });

  it('a JWT with a tampered payload answers 401', async () => {
    const [header, , signature] = (await sign(google, { email: 'petr.svoboda@example.com' })).split('.');
    const forged = Buffer.from(JSON.stringify({ email: JANA, iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })).toString(
      'base64url',
    );
    expectError(await socialLogin('google', `${header}.${forged}.${signature}`), 401, 'unauthorized_exception');
  });

  it('a key of another network does not open this one', async () => {
    expectError(await socialLogin('google', await sign(apple, { email: JANA })), 401, 'unauthorized_exception');
    expectError(await socialLogin('apple', await sign(google, { email: JANA })), 401, 'unauthorized_exception');
  });

  it('an expired JWT answers 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectError(await socialLogin('google', await sign(google, { email: JANA }, { expires: now - 3600 })), 401, 'unauthorized_exception');
  });

  it('a JWT for another audience or from another issuer answers 401', async () => {
    expectError(await socialLogin('google', await sign(google, { email: JANA }, { audience: 'someone-elses-app' })), 401, 'unauthorized_exception');
    expectError(
      await socialLogin('google', await sign(google, { email: JANA }, { issuer: 'https://evil.example.test' })),
      401,
      'unauthorized_exception',
    );
    expectError(await socialLogin('apple', await sign(apple, { email: JANA }, { audience: 'someone-elses-app' })), 401, 'unauthorized_exception');
  });

  it('an unsigned JWT (alg none) answers 401', async () => {
    const unsigned = new UnsecuredJWT({ email: JANA }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('10m').encode();
    expectError(await socialLogin('google', unsigned), 401, 'unauthorized_exception');
    expectError(await socialLogin('apple', unsigned), 401, 'unauthorized_exception');
  });

  it('an HMAC JWT keyed with the public PEM key (algorithm confusion) answers 401', async () => {
    const confused = await new SignJWT({ email: JANA })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(applePem));
    expectError(await socialLogin('apple', confused), 401, 'unauthorized_exception');
  });

  it('a token that is no JWT at all answers 401', async () => {
    expectError(await socialLogin('google', 'not-a-jwt'), 401, 'unauthorized_exception');
  });

  it('a verified JWT without an e-mail claim answers 401', async () => {
    expectError(await socialLogin('google', await sign(google, { sub: 'g-123' })), 401, 'unauthorized_exception');
  });

  it('a verified JWT whose provider says the e-mail is not verified, or says nothing of it, answers 401', async () => {
    const token = await demoToken(server);
    for (const unverified of [false, 'false', undefined]) {
      expectError(await socialLogin('google', await sign(google, { email: JANA, email_verified: unverified }), token), 401, 'unauthorized_exception');
    }
    expect(customerOf(token.tokenId)).toBeNull();
  });

  it('an unknown social_network_id answers 400 not_found', async () => {
    const response = await socialLogin('myspace', await sign(google, { email: JANA }));
    const error = expectError(response, 400, 'invalid_params_exception');
    expect(error.error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'social_network_credentials.social_network_id', reason: 'not_found', value: 'myspace' }),
    ]);
  });

  it('a verified JWT whose e-mail belongs to no customer answers 400 not_found and logs nobody in', async () => {
    const token = await demoToken(server);
    const response = await socialLogin('google', await sign(google, { email: 'nobody@example.com' }), token);
    const error = expectError(response, 400, 'invalid_params_exception');
    expect(error.error_data.invalid_params).toEqual([expect.objectContaining({ reason: 'not_found', value: 'nobody@example.com' })]);
    expect(customerOf(token.tokenId)).toBeNull();
  });

  it('a verified JWT of a blocked customer answers 403 and logs nobody in', async () => {
    const block = (state: number) => server.app.node.writes.write(null, (tx) => tx.update('customers', DEMO_IDS.customerPetr, { state }));
    block(0);
    try {
      const token = await demoToken(server);
      const response = await socialLogin('google', await sign(google, { email: 'petr.svoboda@example.com', email_verified: true }), token);
      expect(expectError(response, 403, 'forbidden_exception').detail).toBe('The customer is blocked');
      expect(customerOf(token.tokenId)).toBeNull();
    } finally {
      block(1);
    }
  });

  it('missing credentials answer 400 required', async () => {
    const token = await demoToken(server);
    const url = `${server.api('customer')}/tokens/${token.tokenId}/actions/social-network-login`;
    const none = await call('POST', url, { headers: token.headers, body: {} });
    expect(expectError(none, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'social_network_credentials', reason: 'required' }),
    ]);
    const noToken = await call('POST', url, { headers: token.headers, body: { social_network_credentials: { social_network_id: 'google' } } });
    expect(expectError(noToken, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'social_network_credentials.social_network_token', reason: 'required' }),
    ]);
  });

  it("a login on another token's path answers 403 and logs neither token in", async () => {
    const mine = await demoToken(server);
    const theirs = await demoToken(server);
    const response = await call('POST', `${server.api('customer')}/tokens/${theirs.tokenId}/actions/social-network-login`, {
      headers: mine.headers,
      body: { social_network_credentials: { social_network_id: 'google', social_network_token: await sign(google, { email: JANA }) } },
    });
    expectError(response, 403, 'forbidden_exception');
    expect(customerOf(mine.tokenId)).toBeNull();
    expect(customerOf(theirs.tokenId)).toBeNull();
  });

  it('is refused on the enterprise interface', async () => {
    const token = await demoToken(server);
    const response = await call('POST', `${server.api('enterprise')}/tokens/${token.tokenId}/actions/social-network-login`, {
      body: { social_network_credentials: { social_network_id: 'google', social_network_token: await sign(google, { email: JANA }) } },
    });
    expectError(response, 403, 'interface_not_allowed_exception');
  });

  it('a login signs the token in here and queues no command: a token stays at its node', async () => {
    const token = await demoToken(server);
    const before = lastOutboxSeq(server);
    expect((await socialLogin('google', await sign(google, { email: JANA }), token)).status).toBe(200);
    expect(queuedChanges(server, before)).toEqual([]);
    expect(server.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256(token.tokenId))).toBe(DEMO_IDS.customerJana);
  });
});

describe('social-network-login on a node without social networks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 400 not_found for any network', async () => {
    const token = await demoToken(server);
    const response = await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/social-network-login`, {
      headers: token.headers,
      body: { social_network_credentials: { social_network_id: 'google', social_network_token: 'a.b.c' } },
    });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      reason: 'not_found',
      value: 'google',
    });
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
