/**
 * The HTTP frame (DESIGN §3): the data envelope, the error envelope for every error status,
 * interface gating, and paging and sort of collections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../src/demo/demo.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, type JsonResponse, type TestServer } from '../support/server.js';
import { expectError, invalidParams } from '../support/expect-error.js';

/** The `invalid_params` of a 400 answer. */
const UNKNOWN_ID = '0123456789abcdef0123456789';

describe('the HTTP frame', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  let enterprise: string;
  let customer: string;
  const login = (body: unknown) => call('POST', `${enterprise}/users/actions/login`, { body });

  beforeAll(async () => {
    server = await startTestServer();
    auth = await demoPosLogin(server);
    enterprise = server.api('enterprise');
    customer = server.api('customer');
  });
  afterAll(() => server.close());

  describe('success', () => {
    it('answers a collection in the data envelope with its plural key and total_items', async () => {
      const response = await call('GET', `${enterprise}/customer-external-applications`, { headers: auth });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data']);
      expect(response.body.data.total_items).toBe(1);
      expect(response.body.data.customer_external_applications[0].name).toBe('Demo POS and customer app');
    });

    it('answers a single record in the data envelope', async () => {
      const response = await call('GET', `${enterprise}/customer-external-applications/${demoCredentials.external_application_id}`, {
        headers: auth,
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        external_application_id: demoCredentials.external_application_id,
        name: 'Demo POS and customer app',
      });
    });

    it('answers a creation with 201 in the data envelope', async () => {
      const response = await call('POST', `${customer}/tokens`, {
        headers: basic(demoCredentials.api_user, ''),
        body: { device: {}, setup: {}, external_application_id: demoCredentials.external_application_id },
      });
      expect(response.status).toBe(201);
      expect(response.body.data.token_id).toEqual(expect.any(String));
    });

    it('answers 204 with no body at all', async () => {
      const { tokenId, headers } = await demoToken(server);
      const response = await call('PUT', `${customer}/tokens/${tokenId}`, { headers, body: { setup: {} } });
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers.get('content-type')).toBeNull();
    });
  });

  describe('400', () => {
    it('a body that is not valid JSON answers 400 naming the body', async () => {
      const response = await call('POST', `${enterprise}/users/actions/login`, { rawBody: '{"login": "pos",' });
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'body', reason: 'invalid_value_format' })]);
    });

    it('a missing field answers 400 with reason required and the field name', async () => {
      const response = await login({ user_external_application_id: demoCredentials.external_application_id, password: 'x' });
      expect(invalidParams(response)).toEqual([{ name: 'login', reason: 'required', value: '', message: expect.any(String) }]);
    });

    it('every missing field is listed, not only the first', async () => {
      const names = invalidParams(await login({})).map((param) => [param.name, param.reason]);
      expect(names).toEqual([
        ['user_external_application_id', 'required'],
        ['login', 'required'],
        ['password', 'required'],
      ]);
    });

    it('an empty string answers 400 with reason empty', async () => {
      const response = await login({ user_external_application_id: demoCredentials.external_application_id, login: '', password: 'x' });
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'login', reason: 'empty', value: '' })]);
    });

    it('a value of the wrong type answers 400 with reason invalid_value_format and the value', async () => {
      const response = await login({ user_external_application_id: demoCredentials.external_application_id, login: 42, password: 'x' });
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'login', reason: 'invalid_value_format', value: '42' })]);
    });

    it('a nested field is named by its dotted path', async () => {
      const response = await call('POST', `${customer}/tokens`, {
        headers: basic(demoCredentials.api_user, ''),
        body: { device: { device_id: 7 }, setup: {}, external_application_id: demoCredentials.external_application_id },
      });
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'device.device_id', reason: 'invalid_value_format', value: '7' })]);
    });

    it('count=1001 answers 400 with reason not_allowed_value', async () => {
      const response = await call('GET', `${enterprise}/customer-external-applications?count=1001`, { headers: auth });
      expect(invalidParams(response)).toEqual([expect.objectContaining({ name: 'count', reason: 'not_allowed_value', value: '1001' })]);
    });
  });

  describe('401', () => {
    it('a request without credentials answers 401 with a WWW-Authenticate challenge', async () => {
      const response = await call('GET', `${enterprise}/customer-external-applications`);
      expectError(response, 401, 'unauthorized_exception');
      expect(response.headers.get('www-authenticate')).toMatch(/Bearer/);
    });
  });

  describe('interface gating (403)', () => {
    it('customer-only POST /tokens on the enterprise interface answers 403 interface_not_allowed_exception', async () => {
      const response = await call('POST', `${enterprise}/tokens`, {
        headers: auth,
        body: { device: {}, setup: {}, external_application_id: demoCredentials.external_application_id },
      });
      const error = expectError(response, 403, 'interface_not_allowed_exception');
      expect(error.type).toBe('interface_not_allowed_exception');
      expect(error.error_data).toEqual({ invalid_resource_name: 'tokens', interface: 'Enterprise' });
      expect(error.detail).toBe('Resource name "tokens" is not allowed in Enterprise API');
    });

    it('customer-only PUT /tokens/{id} on the enterprise interface answers 403', async () => {
      const { tokenId } = await demoToken(server);
      const response = await call('PUT', `${enterprise}/tokens/${tokenId}`, { headers: auth, body: { setup: {} } });
      expect(expectError(response, 403, 'interface_not_allowed_exception').error_data.invalid_resource_name).toBe('tokens');
    });

    it('enterprise-only user login on the customer interface answers 403', async () => {
      const response = await call('POST', `${customer}/users/actions/login`, {
        body: {
          user_external_application_id: demoCredentials.external_application_id,
          login: demoCredentials.pos_login,
          password: demoCredentials.pos_password,
        },
      });
      const error = expectError(response, 403, 'interface_not_allowed_exception');
      expect(error.type).toBe('interface_not_allowed_exception');
      expect(error.error_data).toEqual({ invalid_resource_name: 'users', interface: 'Customer' });
      expect(response.body).not.toHaveProperty('data');
    });

    it('enterprise-only customer-external-applications on the customer interface answers 403, even with a valid token', async () => {
      const { headers } = await demoToken(server);
      for (const path of ['/customer-external-applications', `/customer-external-applications/${demoCredentials.external_application_id}`]) {
        const response = await call('GET', `${customer}${path}`, { headers });
        const error = expectError(response, 403, 'interface_not_allowed_exception');
        expect(error.error_data.invalid_resource_name).toBe('customer-external-applications');
      }
    });
  });

  describe('404', () => {
    it('answers an unknown path with 404 in the error envelope', async () => {
      const response = await call('GET', `${enterprise}/no-such-resource`, { headers: auth });
      const error = expectError(response, 404, 'not_found_exception');
      expect(error.error_data.resource_name).toBe('/rest-api/enterprise-interface/v1.0/no-such-resource');
    });

    it('answers an unknown path outside both interfaces with 404 in the error envelope', async () => {
      expectError(await call('GET', `${server.url}/rest-api/admin-interface/v1.0/customers`), 404, 'not_found_exception');
      expectError(
        await call('GET', `${server.url}/rest-api/enterprise-interface/v2.0/customer-external-applications`, { headers: auth }),
        404,
        'not_found_exception',
      );
    });

    it('answers an unknown id with 404 naming the resource and the id', async () => {
      const response = await call('GET', `${enterprise}/customer-external-applications/${UNKNOWN_ID}`, { headers: auth });
      const error = expectError(response, 404, 'not_found_exception');
      expect(error.error_data).toEqual({ resource_name: 'customer-external-applications', resource_id: UNKNOWN_ID });
    });
  });

  describe('405', () => {
    it('a known path with a method it does not offer answers 405 with an Allow header', async () => {
      const response = await call('DELETE', `${enterprise}/customer-external-applications`, { headers: auth });
      const error = expectError(response, 405, 'method_not_allowed_exception');
      expect(response.headers.get('allow')).toBe('GET');
      expect(error.error_data.http_method).toBe('DELETE');
    });

    it('GET on the login action answers 405 allowing POST', async () => {
      const response = await call('GET', `${enterprise}/users/actions/login`);
      expectError(response, 405, 'method_not_allowed_exception');
      expect(response.headers.get('allow')).toBe('POST');
    });
  });

  describe('415', () => {
    it('a JSON body in a charset other than UTF answers 415', async () => {
      const response = await call('POST', `${enterprise}/users/actions/login`, {
        rawBody: '{}',
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      expectError(response, 415, 'unsupported_media_type_exception');
    });
  });
});

describe('the body limit (413)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { 'http.body_limit_bytes': 1024 } });
  });
  afterAll(() => server.close());

  const loginWithPadding = (padding: number) =>
    call('POST', `${server.api('enterprise')}/users/actions/login`, {
      body: { user_external_application_id: demoCredentials.external_application_id, login: 'pos', password: 'x'.repeat(padding) },
    });

  it('a body above http.body_limit_bytes answers 413 naming the limit', async () => {
    const response = await loginWithPadding(2000);
    const error = expectError(response, 413, 'payload_too_large_exception');
    expect(error.error_data.limit_bytes).toBe(1024);
  });

  it('a body below the limit is read and judged on its content', async () => {
    expectError(await loginWithPadding(900), 401, 'unauthorized_exception');
  });
});

describe('too many requests (429)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { 'auth.login_failures_allowed': 1, 'auth.login_failure_window_seconds': 60 } });
  });
  afterAll(() => server.close());

  it('a login beyond the failures allowed answers 429 in the error envelope with Retry-After', async () => {
    const url = `${server.api('enterprise')}/users/actions/login`;
    const body = { user_external_application_id: demoCredentials.external_application_id, login: 'pos', password: 'wrong' };
    expectError(await call('POST', url, { body }), 401, 'unauthorized_exception');
    const response = await call('POST', url, { body });
    const error = expectError(response, 429, 'too_many_requests_exception');
    expect(response.headers.get('retry-after')).toBe('60');
    expect(error.error_data.retry_after).toBe(60);
  });
});

describe('paging and sort of GET /customer-external-applications', () => {
  const EXTRA = 120;
  let server: TestServer;
  let auth: Record<string, string>;
  /** Every application name in order; "App-…" sorts before "Demo…" with or without case folding. */
  let namesAscending: string[];

  const list = (query: string) => call('GET', `${server.api('enterprise')}/customer-external-applications${query}`, { headers: auth });
  const names = (response: JsonResponse): string[] => response.body.data.customer_external_applications.map((app: { name: string }) => app.name);

  beforeAll(async () => {
    server = await startTestServer();
    auth = await demoPosLogin(server);
    // Created in a scrambled order (7 is coprime to 120), so creation order is not name order.
    const created: string[] = [];
    for (let i = 0; i < EXTRA; i += 1) {
      const name = `App-${String((i * 7) % EXTRA).padStart(3, '0')}`;
      server.app.services.applications.create(name);
      created.push(name);
    }
    namesAscending = [...created.sort(), 'Demo POS and customer app'];
  });
  afterAll(() => server.close());

  it('answers 100 items by default while total_items counts all', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body.data.customer_external_applications).toHaveLength(100);
    expect(response.body.data.total_items).toBe(EXTRA + 1);
  });

  it('sorts by external_application_id ascending by default', async () => {
    const ids = (await list('?count=1000')).body.data.customer_external_applications.map(
      (app: { external_application_id: string }) => app.external_application_id,
    );
    expect(ids).toHaveLength(EXTRA + 1);
    expect(ids).toEqual([...ids].sort());
  });

  it('count and offset narrow the page', async () => {
    const response = await list('?sort_field=name&count=10&offset=20');
    expect(response.status).toBe(200);
    expect(names(response)).toEqual(namesAscending.slice(20, 30));
    expect(response.body.data.total_items).toBe(EXTRA + 1);
  });

  it('count=1000 is allowed and answers every item', async () => {
    expect(names(await list('?count=1000&sort_field=name'))).toEqual(namesAscending);
  });

  it('an offset at or past the end answers an empty list with total_items still counting all', async () => {
    for (const offset of [EXTRA + 1, 5000]) {
      const response = await list(`?offset=${offset}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ customer_external_applications: [], total_items: EXTRA + 1 });
    }
  });

  it('sort_field=name sorts ascending with ASC and descending with DESC', async () => {
    expect(names(await list('?count=1000&sort_field=name&sort_direction=ASC'))).toEqual(namesAscending);
    expect(names(await list('?count=1000&sort_field=name&sort_direction=DESC'))).toEqual([...namesAscending].reverse());
  });

  it('sort_direction is accepted in lower case', async () => {
    expect(names(await list('?count=5&sort_field=name&sort_direction=desc'))).toEqual([...namesAscending].reverse().slice(0, 5));
    expect(names(await list('?count=5&sort_field=name&sort_direction=asc'))).toEqual(namesAscending.slice(0, 5));
  });

  it('an unknown sort_field answers 400 not_allowed_value', async () => {
    expect(invalidParams(await list('?sort_field=colour'))).toEqual([
      expect.objectContaining({ name: 'sort_field', reason: 'not_allowed_value', value: 'colour' }),
    ]);
  });

  it('an unknown sort_direction answers 400 not_allowed_value', async () => {
    expect(invalidParams(await list('?sort_direction=sideways'))).toEqual([
      expect.objectContaining({ name: 'sort_direction', reason: 'not_allowed_value', value: 'sideways' }),
    ]);
  });

  it.each([
    ['count=0', 'count', 'not_allowed_value'],
    ['count=1001', 'count', 'not_allowed_value'],
    ['offset=-1', 'offset', 'not_allowed_value'],
    ['count=abc', 'count', 'invalid_value_format'],
    ['count=2.5', 'count', 'invalid_value_format'],
  ])('%s answers 400 naming %s with reason %s', async (query, name, reason) => {
    const value = query.split('=')[1];
    expect(invalidParams(await list(`?${query}`))).toEqual([expect.objectContaining({ name, reason, value })]);
  });
});
