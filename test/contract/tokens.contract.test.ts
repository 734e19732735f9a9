/**
 * Contract of the token and user-login actions not covered by contract.test.ts: each answer
 * against the response of the same operation and status in spec/carecloud-openapi-2021.yaml
 * (the audit of every operation heads writes.contract.test.ts), as test/support/contract-rows.ts
 * checks it. The social network is configured with a PEM key made here, per run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../src/demo/demo.js';
import type { Interface } from '../../src/http/interfaces.js';
import { contractRows, type ContractRow } from '../support/contract-rows.js';
import { janaSession, type Session } from '../support/customers-fixtures.js';
import { CURRENT_SPEC, OpenApiContract } from '../support/openapi.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, type JsonResponse, type TestServer } from '../support/server.js';

const APP = demoCredentials.external_application_id;

const contract = new OpenApiContract();
const CURRENT = new OpenApiContract(CURRENT_SPEC);
const keys = mkdtempSync(join(tmpdir(), 'loyaltyd-contract-keys-'));
let server: TestServer;
let pos: Record<string, string>;
let socialKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  socialKey = pair.privateKey;
  writeFileSync(join(keys, 'apple.pem'), await exportSPKI(pair.publicKey));
  server = await startTestServer({
    config: { social_networks: { apple: { keys_file: join(keys, 'apple.pem'), issuer: 'https://appleid.example', audience: 'loyalty-app' } } },
  });
  pos = await demoPosLogin(server);
});
afterAll(async () => {
  await server.close();
  rmSync(keys, { recursive: true, force: true });
});

/** An action on a token of its own: a fresh one, or one with Jana logged in. */
async function onToken(method: string, action: string, body?: unknown, loggedIn = false): Promise<JsonResponse> {
  const token: Session = loggedIn ? await janaSession(server) : await demoToken(server);
  return call(method.toUpperCase(), `${server.api('customer')}/tokens/${token.tokenId}${action}`, { headers: token.headers, body });
}

const socialToken = (email: string) =>
  new SignJWT({ email, email_verified: true })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer('https://appleid.example')
    .setAudience('loyalty-app')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(socialKey);

async function authTokenOfJana(iface: Interface): Promise<JsonResponse> {
  const jana = await janaSession(server);
  const headers = iface === 'enterprise' ? pos : jana.headers;
  return call('GET', `${server.api(iface)}/tokens/${jana.tokenId}/actions/auth-token?external_application_id=${APP}&token_type=2`, { headers });
}

const ROWS: ContractRow[] = [
  {
    method: 'post',
    specPath: '/tokens',
    iface: 'customer',
    status: 400,
    reason: 'required',
    send: () =>
      call('POST', `${server.api('customer')}/tokens`, {
        headers: basic(demoCredentials.api_user, ''),
        body: { setup: { external_application_id: APP } },
      }),
  },
  {
    method: 'post',
    specPath: '/tokens',
    iface: 'customer',
    status: 201,
    differs: 'no external_application_id, which the 2021 file requires: the chain has one customer external application, and that one is meant',
    send: () =>
      call('POST', `${server.api('customer')}/tokens`, {
        headers: basic(demoCredentials.api_user, ''),
        body: { device: { device_id: 'generated-client' }, setup: { language_id: 'en' } },
      }),
  },
  {
    method: 'put',
    specPath: '/tokens/{token_id}',
    iface: 'customer',
    status: 204,
    send: () => onToken('put', '', { setup: { language_id: 'cs' }, push_token: 'push-1' }),
  },
  { method: 'put', specPath: '/tokens/{token_id}', iface: 'customer', status: 400, reason: 'required', send: () => onToken('put', '', {}) },
  {
    method: 'put',
    specPath: '/tokens/{token_id}',
    iface: 'customer',
    status: 403,
    differs: "another token's id in the path; the 2021 file's 403 has no body, the current spec's Forbidden body is served",
    spec: CURRENT,
    send: async () => {
      const [mine, theirs] = [await demoToken(server), await demoToken(server)];
      return call('PUT', `${server.api('customer')}/tokens/${theirs.tokenId}`, { headers: mine.headers, body: { setup: {} } });
    },
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/login',
    iface: 'customer',
    status: 401,
    send: () => onToken('post', '/actions/login', { login_type: 'card', login_value: demoCredentials.customer_card, password: 'wrong-password' }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/login',
    iface: 'customer',
    status: 400,
    reason: 'required',
    send: () => onToken('post', '/actions/login', { login_type: 'card', login_value: demoCredentials.customer_card }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/logout',
    iface: 'customer',
    status: 204,
    send: () => onToken('post', '/actions/logout', undefined, true),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/social-network-login',
    iface: 'customer',
    status: 200,
    send: async () =>
      onToken('post', '/actions/social-network-login', {
        social_network_credentials: { social_network_id: 'apple', social_network_token: await socialToken(demoCredentials.customer_email) },
      }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/social-network-login',
    iface: 'customer',
    status: 400,
    reason: 'required',
    send: () => onToken('post', '/actions/social-network-login', {}),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/social-network-login',
    iface: 'customer',
    status: 401,
    send: () =>
      onToken('post', '/actions/social-network-login', {
        social_network_credentials: { social_network_id: 'apple', social_network_token: 'not-a-jwt' },
      }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/send-password-setup-email',
    iface: 'customer',
    status: 204,
    send: () => onToken('post', '/actions/send-password-setup-email', { email: demoCredentials.customer_email }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/send-password-setup-email',
    iface: 'customer',
    status: 400,
    reason: 'required',
    send: () => onToken('post', '/actions/send-password-setup-email', {}),
  },
  // interface.md: "The auth-token action appears under the enterprise interface path in its example."
  {
    method: 'get',
    specPath: '/tokens/{token_id}/actions/auth-token',
    iface: 'enterprise',
    status: 200,
    send: () => authTokenOfJana('enterprise'),
  },
  {
    method: 'get',
    specPath: '/tokens/{token_id}/actions/auth-token',
    iface: 'enterprise',
    status: 200,
    differs: 'the code also under authentication_token, as interface.md and the current spec name it',
    spec: CURRENT,
    send: () => authTokenOfJana('enterprise'),
  },
  {
    method: 'get',
    specPath: '/tokens/{token_id}/actions/auth-token',
    iface: 'customer',
    status: 400,
    reason: 'required',
    send: () => onToken('get', '/actions/auth-token', undefined, true),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/authentication-token-login',
    iface: 'customer',
    status: 200,
    differs: "the 2021 file lacks this action (DESIGN §4 serves the current spec's): current spec",
    spec: CURRENT,
    send: async () => {
      const { authentication_token: token, token_request_id } = (await authTokenOfJana('customer')).body.data;
      return onToken('post', '/actions/authentication-token-login', { token, token_request_id });
    },
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/authentication-token-login',
    iface: 'customer',
    status: 400,
    reason: 'required',
    differs: 'the 2021 file lacks this action: current spec',
    spec: CURRENT,
    send: () => onToken('post', '/actions/authentication-token-login', {}),
  },
  {
    method: 'post',
    specPath: '/users/actions/login',
    iface: 'enterprise',
    status: 400,
    reason: 'required',
    send: () =>
      call('POST', `${server.api('enterprise')}/users/actions/login`, {
        body: { user_external_application_id: APP, login: demoCredentials.pos_login },
      }),
  },
];

describe('token and user-login actions conform to the 2021 OpenAPI schema of their operation', () => {
  contractRows(ROWS, contract);

  it('POST /users/actions/login 401 (enterprise): the 2021 file documents no 401 for it, so the answer has the 401 body of its other operations', async () => {
    expect(contract.hasOperation('post', '/users/actions/login', 401)).toBe(false);
    const response = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: APP, login: demoCredentials.pos_login, password: 'wrong-password' },
    });
    expect(response.status).toBe(401);
    expect(contract.check('post', '/users/actions/logout', 401, response.body)).toEqual([]);
  });
});
