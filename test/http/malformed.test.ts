/**
 * Bad input never yields 500 and never a stack trace (DESIGN §3): a table of hostile
 * requests, each of which must answer its 4xx in the error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { basePath, type Interface } from '../../src/http/interfaces.js';
import { connect } from 'node:net';
import { basic, call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';

interface Hostile {
  name: string;
  iface: Interface;
  method: string;
  /** After the interface's base path; `{token}` is replaced by a valid token id. */
  path: string;
  /** Which valid credential to send, if any; `headers` may override Authorization. */
  credentials?: 'user' | 'token' | 'api-user';
  headers?: Record<string, string>;
  /** Sent as application/json unless headers name another content type. */
  body?: string | Uint8Array;
  status: number;
  exception: string;
  check?: (error: any) => void;
}

/** Writes raw bytes to the server and reads all it answers until it closes the connection. */
function rawExchange(url: URL, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const LOGIN = '/users/actions/login';
const APPS = '/customer-external-applications';
const APP = demoCredentials.external_application_id;
const DEPTH = 100_000;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
const loginBody = (login: string) => `{"user_external_application_id": "${APP}", "login": ${login}, "password": "x"}`;
const base64 = (bytes: number[] | string) => Buffer.from(typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)).toString('base64');

function invalidParamsOf(error: any): [string, string][] {
  return error.error_data.invalid_params.map((param: { name: string; reason: string }) => [param.name, param.reason]);
}

const HOSTILE: Hostile[] = [
  // Request bodies of the enterprise login (public, so nothing but the body is judged).
  {
    name: 'a login body that is a JSON array answers 400 naming the body',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '[]',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['body', 'invalid_value_format']]),
  },
  {
    name: 'a login body that is an array of the right object answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: `[${loginBody('"pos"')}]`,
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a login body of JSON null answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: 'null',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) =>
      expect(error.error_data.invalid_params).toEqual([
        { name: 'body', reason: 'invalid_value_format', value: 'null', message: 'The body must be a JSON object, not null' },
      ]),
  },
  {
    name: 'a login body that is a bare string answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '"pos"',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a login body that is a bare number answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '42',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'numbers and booleans in place of strings answer 400 listing each field',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '{"user_external_application_id": 1, "login": true, "password": 3}',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) =>
      expect(invalidParamsOf(error)).toEqual([
        ['user_external_application_id', 'invalid_value_format'],
        ['login', 'invalid_value_format'],
        ['password', 'invalid_value_format'],
      ]),
  },
  {
    name: 'objects and arrays in place of strings answer 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '{"user_external_application_id": {}, "login": ["pos"], "password": {"$ne": null}}',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a field nested 100 000 arrays deep answers 400 naming the body, nested past the depth any body may',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: loginBody(deepArray),
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(error.error_data.invalid_params[0]).toMatchObject({ name: 'body', reason: 'invalid_value_format' }),
  },
  {
    // Schemas drop a field they do not read, but the call is recorded as sent for the hub to run again.
    name: 'a field no schema reads, nested 100 000 arrays deep, answers 400 naming the body, where it answered 500 (found by the fuzz)',
    iface: 'enterprise',
    method: 'POST',
    path: `/customers/${DEMO_IDS.customerEva}/customer-source-records`,
    credentials: 'user',
    body: `{"customer_source_record": {"customer_source_id": "crm", "external_id": "deep-1", "last_change": ${deepArray}}}`,
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(error.error_data.invalid_params[0]).toMatchObject({ name: 'body', reason: 'invalid_value_format' }),
  },
  {
    name: 'a field nested 50 000 objects deep answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: loginBody(deepObject),
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'numbers beyond double range and precision answer 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '{"user_external_application_id": 1e400, "login": -1e400, "password": 123456789012345678901234567890}',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a body cut off mid-object answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '{"user_external_application_id": "',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a body with trailing garbage answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: `${loginBody('"pos"')} trailing`,
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a body in single-quoted pseudo-JSON answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: "{'login': 'pos'}",
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'an XML body labelled as JSON answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '<login><user>pos</user></login>',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'an empty body labelled as JSON answers 400 with the fields required',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error).map(([, reason]) => reason)).toEqual(['required', 'required', 'required']),
  },
  {
    name: 'a POST without any body answers 400 with the fields required',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a JSON body sent as text/plain answers 415 naming text/plain',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: loginBody('"pos"'),
    status: 415,
    exception: 'unsupported_media_type_exception',
    check: (error) => expect(error.detail).toBe('Request bodies must be application/json, not text/plain'),
  },
  {
    name: 'a form-encoded login answers 415 naming the form type',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `user_external_application_id=${APP}&login=pos&password=x`,
    status: 415,
    exception: 'unsupported_media_type_exception',
    check: (error) => expect(error.detail).toBe('Request bodies must be application/json, not application/x-www-form-urlencoded'),
  },
  {
    name: 'a login body that is a JSON string answers 400 saying so',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: '"pos"',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) =>
      expect(error.error_data.invalid_params[0]).toMatchObject({ name: 'body', message: 'The body must be a JSON object, not a string' }),
  },
  {
    name: 'a JSON body declared in a non-UTF charset answers 415',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    body: loginBody('"pos"'),
    status: 415,
    exception: 'unsupported_media_type_exception',
  },
  {
    name: 'a body claiming gzip that is not gzip answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-encoding': 'gzip' },
    body: loginBody('"pos"'),
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a body claiming deflate that is not deflate answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-encoding': 'deflate' },
    body: loginBody('"pos"'),
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a body in an unknown content encoding answers 415',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    headers: { 'content-encoding': 'x-unknown' },
    body: loginBody('"pos"'),
    status: 415,
    exception: 'unsupported_media_type_exception',
  },
  {
    name: 'a login holding bytes that are not UTF-8 answers 401',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: Buffer.concat([
      Buffer.from(`{"user_external_application_id": "${APP}", "login": "`),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('", "password": "x"}'),
    ]),
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a login of emoji, right-to-left text and NUL answers 401',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: loginBody('"pos\\u0000 🐎 שלום ŽĎŤ"'),
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a login holding a lone UTF-16 surrogate answers 401',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: loginBody('"\\ud800pos"'),
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'fields hidden behind __proto__ and constructor are not taken and answer 400 required',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: `{"__proto__": {"user_external_application_id": "${APP}", "login": "pos", "password": "x"}, "constructor": {"prototype": {"login": "pos"}}}`,
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error).map(([, reason]) => reason)).toEqual(['required', 'required', 'required']),
  },
  {
    name: 'an array of 200 000 numbers as the body answers 400',
    iface: 'enterprise',
    method: 'POST',
    path: LOGIN,
    body: `[${new Array(200_000).fill('1').join(',')}]`,
    status: 400,
    exception: 'invalid_params_exception',
  },

  // Authorization headers that are not credentials.
  {
    name: "an Authorization of 'Bearer' with no token answers 401",
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: 'Bearer' },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Bearer header with two tokens answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: 'Bearer abc def' },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Bearer token of 10 000 characters answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: `Bearer ${'x'.repeat(10_000)}` },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Bearer token of Latin-1 bytes answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: 'Bearer \u00ff\u00fe\u00e9' },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Basic header that is not base64 answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: 'Basic %%%not-base64%%%' },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Basic header without a colon answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: `Basic ${base64('pos-legacy')}` },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a Basic header decoding to bytes that are not UTF-8 answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: `Basic ${base64([0xff, 0xfe, 0x3a, 0x00, 0xc3])}` },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'an unknown Authorization scheme answers 401',
    iface: 'enterprise',
    method: 'GET',
    path: APPS,
    headers: { authorization: 'Digest username="pos", realm="loyaltyd"' },
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a customer Basic header whose token part is 10 000 characters answers 401',
    iface: 'customer',
    method: 'PUT',
    path: '/tokens/{token}',
    headers: { authorization: `Basic ${base64(`${demoCredentials.api_user}:${'t'.repeat(10_000)}`)}` },
    body: '{"setup": {}}',
    status: 401,
    exception: 'unauthorized_exception',
  },
  {
    name: 'a customer Basic header with an SQL-like api user answers 401',
    iface: 'customer',
    method: 'PUT',
    path: '/tokens/{token}',
    headers: { authorization: `Basic ${base64("' OR '1'='1:x")}` },
    body: '{"setup": {}}',
    status: 401,
    exception: 'unauthorized_exception',
  },

  // Query strings.
  {
    name: 'count given twice with brackets answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?count[]=5&count[]=6`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['count', 'invalid_value_format']]),
  },
  {
    name: 'count given twice as a repeated key answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?count=5&count=6`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'count given with indexed brackets answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?count[0]=1&count[1]=2`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'sort_field given as an array answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?sort_field[]=name`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'query keys __proto__ and constructor do not disturb validation of the others',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?__proto__=x&constructor=y&toString=z&count=0`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['count', 'not_allowed_value']]),
  },
  {
    name: 'count in exponent notation answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?count=1e3`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'an offset beyond the safe integers answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?offset=99999999999999999999999`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a lone percent sign as count answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?count=%`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'SQL in sort_field answers 400 not_allowed_value',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?sort_field=${encodeURIComponent('name; DROP TABLE external_applications')}`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['sort_field', 'not_allowed_value']]),
  },
  {
    name: 'SQL in sort_direction answers 400 not_allowed_value',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}?sort_direction=${encodeURIComponent('ASC; DROP TABLE external_applications')}`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },

  // Path ids.
  {
    name: 'a path-traversal id answers 404 naming the id as given',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/..%2F..%2Fetc%2Fpasswd`,
    credentials: 'user',
    status: 404,
    exception: 'not_found_exception',
    check: (error) => expect(error.error_data).toEqual({ resource_name: 'customer-external-applications', resource_id: '../../etc/passwd' }),
  },
  {
    name: 'an id with a broken percent escape answers 400',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/%E0%A4%A`,
    credentials: 'user',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'an id of 8 000 characters answers 404',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/${'a'.repeat(8_000)}`,
    credentials: 'user',
    status: 404,
    exception: 'not_found_exception',
  },
  {
    name: 'an id that is a NUL byte answers 404',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/%00`,
    credentials: 'user',
    status: 404,
    exception: 'not_found_exception',
  },
  {
    name: 'an id of SQL answers 404',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/${encodeURIComponent("' OR '1'='1")}`,
    credentials: 'user',
    status: 404,
    exception: 'not_found_exception',
  },
  {
    name: 'an id of emoji answers 404',
    iface: 'enterprise',
    method: 'GET',
    path: `${APPS}/${encodeURIComponent('🐎🐎')}`,
    credentials: 'user',
    status: 404,
    exception: 'not_found_exception',
  },
  {
    name: 'a path-traversal token id answers 403 as not the caller’s token',
    iface: 'customer',
    method: 'PUT',
    path: '/tokens/..%2F..%2Fusers',
    credentials: 'token',
    body: '{"setup": {}}',
    status: 403,
    exception: 'forbidden_exception',
  },
  {
    name: 'a token id of 5 000 characters answers 403 as not the caller’s token',
    iface: 'customer',
    method: 'PUT',
    path: `/tokens/${'f'.repeat(5_000)}`,
    credentials: 'token',
    body: '{"setup": {}}',
    status: 403,
    exception: 'forbidden_exception',
  },

  // Customer-interface bodies.
  {
    name: 'a token with device as an array and setup as null answers 400',
    iface: 'customer',
    method: 'POST',
    path: '/tokens',
    credentials: 'api-user',
    body: `{"device": [], "setup": null, "external_application_id": "${APP}"}`,
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) =>
      expect(invalidParamsOf(error)).toEqual([
        ['device', 'invalid_value_format'],
        ['setup', 'invalid_value_format'],
      ]),
  },
  {
    name: 'a token body that is an array answers 400',
    iface: 'customer',
    method: 'POST',
    path: '/tokens',
    credentials: 'api-user',
    body: `[{"device": {}, "setup": {}, "external_application_id": "${APP}"}]`,
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'a token device nested 100 000 arrays deep answers 400',
    iface: 'customer',
    method: 'POST',
    path: '/tokens',
    credentials: 'api-user',
    body: `{"device": ${deepArray}, "setup": {}, "external_application_id": "${APP}"}`,
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'an operator object as external_application_id answers 400',
    iface: 'customer',
    method: 'POST',
    path: '/tokens',
    credentials: 'api-user',
    body: '{"device": {}, "setup": {}, "external_application_id": {"$ne": null}}',
    status: 400,
    exception: 'invalid_params_exception',
  },
  {
    name: 'SQL as external_application_id answers 400 not_found',
    iface: 'customer',
    method: 'POST',
    path: '/tokens',
    credentials: 'api-user',
    body: `{"device": {}, "setup": {}, "external_application_id": "' OR 1=1 --"}`,
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['external_application_id', 'not_found']]),
  },
  {
    name: 'a token setup with allowed_gps as the string "true" answers 400',
    iface: 'customer',
    method: 'PUT',
    path: '/tokens/{token}',
    credentials: 'token',
    body: '{"setup": {"allowed_gps": "true"}}',
    status: 400,
    exception: 'invalid_params_exception',
    check: (error) => expect(invalidParamsOf(error)).toEqual([['setup.allowed_gps', 'invalid_value_format']]),
  },
];

describe('hostile requests', () => {
  let server: TestServer;
  let userHeaders: Record<string, string>;
  let tokenId: string;
  let tokenHeaders: Record<string, string>;

  beforeAll(async () => {
    // The throttle is not under test here: many rows are failed logins from one address.
    server = await startTestServer({ config: { 'auth.login_failures_allowed': 10_000 } });
    userHeaders = await demoPosLogin(server);
    ({ tokenId, headers: tokenHeaders } = await demoToken(server));
  });
  afterAll(() => server.close());

  function credentialHeaders(row: Hostile): Record<string, string> {
    switch (row.credentials) {
      case 'user':
        return userHeaders;
      case 'token':
        return tokenHeaders;
      case 'api-user':
        return basic(demoCredentials.api_user, '');
      default:
        return {};
    }
  }

  it('the table holds at least 25 hostile requests', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each(HOSTILE)('$name', async (row) => {
    const headers: Record<string, string> = { ...credentialHeaders(row), ...row.headers };
    if (row.body !== undefined && !Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const url = `${server.api(row.iface)}${row.path.replace('{token}', tokenId)}`;
    const response = await fetch(url, { method: row.method, headers, body: row.body });
    const text = await response.text();

    expect(response.status).toBe(row.status);
    expect(text).not.toMatch(/\n\s+at |node_modules|\.[jt]s:\d+|\/src\/|Error: /);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatchObject({
      type: expect.any(String),
      exception: row.exception,
      title: expect.any(String),
      detail: expect.any(String),
      error_data: expect.any(Object),
    });
    row.check?.(body.error);
  });

  it.each([
    [
      'a request line and headers over 16 KB',
      `GET ${basePath('enterprise')}${APPS} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'request_header_fields_too_large_exception',
    ],
    ['bytes that are not HTTP', 'HELLO THERE\r\n\r\n', 400, 'invalid_params_exception'],
  ])('%s, refused before the app reads it, answers in the error envelope', async (_name, raw, status, exception) => {
    const answer = await rawExchange(new URL(server.url), raw);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body).error).toMatchObject({ exception, title: expect.any(String), detail: expect.any(String) });
  });

  it('still answers a valid request after the hostile ones', async () => {
    expect((await call('GET', `${server.api('enterprise')}${APPS}`, { headers: userHeaders })).status).toBe(200);
    expect((await call('PUT', `${server.api('customer')}/tokens/${tokenId}`, { headers: tokenHeaders, body: { setup: {} } })).status).toBe(204);
    const login = await call('POST', `${server.api('enterprise')}${LOGIN}`, {
      body: { user_external_application_id: APP, login: demoCredentials.pos_login, password: demoCredentials.pos_password },
    });
    expect(login.status).toBe(200);
  });
});
