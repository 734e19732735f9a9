import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../src/demo/demo.js';
import { basic, bearer, call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let auth: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

const customerBody = (name: string) => ({ customer: { personal_information: { first_name: name } } });
const createCustomer = (key: string, body: unknown, headers = auth) =>
  call('POST', `${server.api('enterprise')}/customers`, { headers: { ...headers, 'idempotency-key': key }, body });
const customerCount = () => (server.app.node.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;

describe('Idempotency-Key', () => {
  it('a replay with the same key and body answers the stored response and writes nothing more', async () => {
    const before = customerCount();
    const first = await createCustomer('replay-1', customerBody('Ada'));
    const second = await createCustomer('replay-1', customerBody('Ada'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(customerCount()).toBe(before + 1);
  });

  it('the same key with another body answers 422 in the error envelope', async () => {
    await createCustomer('replay-2', customerBody('Bea'));
    const reused = await createCustomer('replay-2', customerBody('Cleo'));
    expect(reused.status).toBe(422);
    expect(reused.body.error.exception).toBe('idempotency_key_reused_exception');
  });

  it('requests racing with one key run the write once', async () => {
    const before = customerCount();
    const answers = await Promise.all([1, 2, 3, 4].map(() => createCustomer('race-1', customerBody('Dora'))));
    expect(new Set(answers.map((answer) => answer.body.data.customer_id)).size).toBe(1);
    expect(customerCount()).toBe(before + 1);
  });

  it('a refused request is replayed as refused, and a new key runs afresh', async () => {
    const refused = await createCustomer('refused-1', { customer: {} });
    expect(refused.status).toBe(400);
    expect((await createCustomer('refused-1', { customer: {} })).body).toEqual(refused.body);
    expect((await createCustomer('refused-2', customerBody('Edda'))).status).toBe(201);
  });

  it('keys are scoped to the caller: another user may use the same key', async () => {
    await server.app.services.users.create({
      login: 'backoffice',
      password: 'backoffice-password',
      externalApplicationId: demoCredentials.external_application_id,
      legacyBasic: false,
      storeId: null,
    });
    const login = await call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: demoCredentials.external_application_id, login: 'backoffice', password: 'backoffice-password' },
    });
    const mine = await createCustomer('shared-key', customerBody('Fay'));
    const theirs = await createCustomer('shared-key', customerBody('Fay'), bearer(login.body.data.bearer_token));
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.customer_id).not.toBe(mine.body.data.customer_id);
  });

  it('a key longer than 255 characters answers 400 invalid_value_format', async () => {
    const response = await createCustomer('k'.repeat(256), customerBody('Gil'));
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params[0].reason).toBe('invalid_value_format');
  });

  it('a body nested deeper than JSON.stringify can walk answers 400 naming the body, not 500 (found by the fuzz)', async () => {
    const depth = 300_000;
    const response = await call('POST', `${server.api('enterprise')}/customers`, {
      headers: { ...auth, 'idempotency-key': 'deep-1' },
      rawBody: `{"customer": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.error_data.invalid_params).toEqual([expect.objectContaining({ name: 'body', reason: 'invalid_value_format' })]);
  });

  it('calls that hand out credentials are never kept: each token creation is new and nothing is stored', async () => {
    const create = () =>
      call('POST', `${server.api('customer')}/tokens`, {
        headers: { ...basic(demoCredentials.api_user, ''), 'idempotency-key': 'token-key' },
        body: { device: { device_id: 'd' }, setup: { external_application_id: demoCredentials.external_application_id } },
      });
    const [first, second] = [await create(), await create()];
    expect(first.body.data.token_id).not.toBe(second.body.data.token_id);
    const kept = server.app.node.db.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE key = 'token-key'").get() as { n: number };
    expect(kept.n).toBe(0);
  });
});

describe('Idempotency-Key and a rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer();
  });
  afterAll(() => limited.close());

  it('a 429 is not kept: it says when to come back, and the same request with the same key then runs', async () => {
    const token = await demoToken(limited);
    const login = (password: string, key?: string) =>
      call('POST', `${limited.api('customer')}/tokens/${token.tokenId}/actions/login`, {
        headers: { ...token.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: { login_type: 'card', login_value: demoCredentials.customer_card, password },
      });
    for (let attempt = 0; attempt < 5; attempt++) expect((await login('wrong password')).status).toBe(401);
    const refused = await login(demoCredentials.customer_password, 'login-after-the-limit');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    limited.clock.advance(retryAfter * 1000);
    expect((await login(demoCredentials.customer_password, 'login-after-the-limit')).status).toBe(200);
  });
});
