/** Customers, cards and customer sessions made through the API, as an app or a POS makes them. */
import { expect } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoToken, type JsonResponse, type TestServer } from './server.js';

export const UNKNOWN_ID = 'ffffffffffffffffffffffffff';

export interface Session {
  tokenId: string;
  headers: Record<string, string>;
}

/** Personal information of test customer `n`; `extra` replaces or adds fields. */
export function person(n: number, extra: Record<string, unknown> = {}) {
  return {
    first_name: `Test${n}`,
    last_name: n % 2 ? 'Odd' : 'Even',
    email: `test${n}@example.com`,
    phone: `420600000${String(n).padStart(3, '0')}`,
    birthdate: `1990-01-${String((n % 28) + 1).padStart(2, '0')}`,
    language_id: 'cs',
    store_id: DEMO_IDS.storeCentral,
    address: { address1: `Street ${n}`, city: 'Brno', zip: '60200', country_code: 'cz' },
    agreement: { agreement_gtc: 1 },
    ...extra,
  };
}

export async function createCustomer(server: TestServer, headers: Record<string, string>, body: Record<string, unknown>): Promise<string> {
  const response = await call('POST', `${server.api('enterprise')}/customers`, { headers, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.customer_id as string;
}

export async function createCard(server: TestServer, headers: Record<string, string>, card: Record<string, unknown>): Promise<string> {
  const response = await call('POST', `${server.api('enterprise')}/cards`, { headers, body: { card } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.card_id as string;
}

export async function loginByEmail(server: TestServer, session: Session, email: string, password: string): Promise<JsonResponse> {
  return call('POST', `${server.api('customer')}/tokens/${session.tokenId}/actions/login`, {
    headers: session.headers,
    body: { login_type: 'email', login_value: email, password },
  });
}

/** A token on which the demo customer Jana is logged in. */
export async function janaSession(server: TestServer): Promise<Session> {
  const session = await demoToken(server);
  const login = await loginByEmail(server, session, demoCredentials.customer_email, demoCredentials.customer_password);
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return session;
}

/** The first invalid parameter of a 400 answer. */
export function invalidParam(response: JsonResponse): { name: string; reason: string; value: string } {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.exception).toBe('invalid_params_exception');
  return response.body.error.error_data.invalid_params[0];
}
