/**
 * Contract of the operations issue 18 adds, as test/support/contract-rows.ts checks them:
 * create-voucher and the wallet's overviews against the 2021 file, the credit resource
 * against today's spec (the 2021 file has none). Each answer in each interface that serves
 * it, and its refusals. Behaviour: test/cli/imported-loyalty-loop, test/features/credits/credits.
 *
 * | operation                                          | served | behaviour (test/…)               |
 * |----------------------------------------------------|--------|----------------------------------|
 * | POST /rewards/{id}/actions/create-voucher          | E C    | cli/imported-loyalty-loop, sync  |
 * | GET /wallet/actions/points-overview                | E C    | cli/imported-loyalty-loop        |
 * | GET /wallet/actions/credits-overview               | E C    | features/credits, sync           |
 * | GET /wallet/actions/points-expiration-overview     | E C    | here                             |
 * | GET /wallet/actions/credits-expiration-overview    | E C    | here                             |
 * | GET /credits, /credits/{id} (today's spec)         | E C    | features/credits                 |
 * | POST /credits/actions/{deposit,reduce}-credits     | E only | features/credits, sync           |
 * | POST /credits/actions/transfer-credits             | E only | features/credits                 |
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import type { Interface } from '../../src/http/interfaces.js';
import { contractRows, type ContractRow } from '../support/contract-rows.js';
import { UNKNOWN_ID } from '../support/customers-fixtures.js';
import { CURRENT_SPEC, OpenApiContract } from '../support/openapi.js';
import { demoCustomerSession } from '../support/reservations-fixtures.js';
import { call, demoPosLogin, startTestServer, type JsonResponse, type TestServer } from '../support/server.js';
import { CAPPUCCINO_REWARD } from '../support/vouchers-fixtures.js';

const { customerJana: JANA, customerPetr: PETR } = DEMO_IDS;
/** The demo program's automated bakery reward, which makes no voucher. */
const BAKERY_REWARD = `de${(0x602).toString(16).padStart(24, '0')}`;
const BOTH: Interface[] = ['enterprise', 'customer'];

const contract = new OpenApiContract();
const CURRENT = new OpenApiContract(CURRENT_SPEC);
let server: TestServer;
const headers = {} as Record<Interface, Record<string, string>>;

beforeAll(async () => {
  server = await startTestServer();
  headers.enterprise = await demoPosLogin(server);
  headers.customer = await demoCustomerSession(server);
  // Enough points for every voucher the rows make.
  const assigned = await send('enterprise', 'post', '/points/actions/assign-points', { customer_id: JANA, amount: 10_000 });
  expect(assigned.status).toBe(204);
});
afterAll(() => server.close());

function send(iface: Interface, method: string, path: string, body?: unknown): Promise<JsonResponse> {
  return call(method.toUpperCase(), `${server.api(iface)}${path}`, { headers: headers[iface], body });
}

const createVoucher = `/rewards/{reward_id}/actions/create-voucher`;
const VOUCHERS: ContractRow[] = [
  ...BOTH.map((iface): ContractRow => ({
    method: 'post',
    specPath: createVoucher,
    iface,
    status: 201,
    send: () => send(iface, 'post', `/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, { customer_id: JANA }),
  })),
  {
    method: 'post',
    specPath: createVoucher,
    iface: 'enterprise',
    status: 404,
    send: () => send('enterprise', 'post', `/rewards/${UNKNOWN_ID}/actions/create-voucher`, { customer_id: JANA }),
  },
  {
    method: 'post',
    specPath: createVoucher,
    iface: 'enterprise',
    status: 400,
    reason: 'required',
    send: () => send('enterprise', 'post', `/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, {}),
  },
  {
    method: 'post',
    specPath: createVoucher,
    iface: 'enterprise',
    status: 400,
    reason: 'not_allowed_value',
    send: () => send('enterprise', 'post', `/rewards/${BAKERY_REWARD}/actions/create-voucher`, { customer_id: JANA }),
  },
  {
    method: 'post',
    specPath: createVoucher,
    iface: 'customer',
    status: 400,
    reason: 'not_belong_to_logged_in_customer',
    send: () => send('customer', 'post', `/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, { customer_id: PETR }),
  },
  {
    method: 'post',
    specPath: createVoucher,
    iface: 'enterprise',
    status: 400,
    reason: 'not_enough_points_for_payment',
    send: () => send('enterprise', 'post', `/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, { customer_id: PETR }),
  },
];

/** No point or credit is due to expire: the 2021 file types next_date as a string, the service answers null. */
const NO_NEXT_DATE = 'next_date is null when nothing expires';
const withNextDate = (body: any) => ({ data: { ...body.data, next_date: body.data.next_date ?? '2026-12-31' } });

const WALLET: ContractRow[] = [
  ...['points-overview', 'credits-overview'].flatMap((action) =>
    BOTH.map((iface): ContractRow => ({
      method: 'get',
      specPath: `/wallet/actions/${action}`,
      iface,
      status: 200,
      send: () => send(iface, 'get', `/wallet/actions/${action}?customer_id=${JANA}&date_from=2026-01-01&date_to=2026-12-31`),
    })),
  ),
  {
    method: 'get',
    specPath: '/wallet/actions/points-overview',
    iface: 'enterprise',
    status: 400,
    reason: 'required',
    send: () => send('enterprise', 'get', '/wallet/actions/points-overview'),
  },
  {
    method: 'get',
    specPath: '/wallet/actions/credits-overview',
    iface: 'enterprise',
    status: 400,
    reason: 'invalid_value_format',
    send: () => send('enterprise', 'get', `/wallet/actions/credits-overview?customer_id=${JANA}&date_from=1.1.2026`),
  },
  {
    method: 'get',
    specPath: '/wallet/actions/points-overview',
    iface: 'customer',
    status: 400,
    reason: 'not_belong_to_logged_in_customer',
    send: () => send('customer', 'get', `/wallet/actions/points-overview?customer_id=${PETR}`),
  },
  ...['points-expiration-overview', 'credits-expiration-overview'].flatMap((action) =>
    BOTH.map((iface): ContractRow => ({
      method: 'get',
      specPath: `/wallet/actions/${action}`,
      iface,
      status: 200,
      differs: NO_NEXT_DATE,
      adapt: withNextDate,
      send: () => send(iface, 'get', `/wallet/actions/${action}?customer_id=${JANA}`),
    })),
  ),
  {
    method: 'get',
    specPath: '/wallet/actions/points-expiration-overview',
    iface: 'enterprise',
    status: 400,
    reason: 'not_found',
    send: () => send('enterprise', 'get', `/wallet/actions/points-expiration-overview?customer_id=${UNKNOWN_ID}`),
  },
];

/** Credit never expires: today's spec types valid_to as a string, the service answers null. */
const NEVER_EXPIRES = 'valid_to is null: credit never expires';
const withValidTo = (credit: any) => ({ ...credit, valid_to: credit.valid_to ?? '2099-12-31 23:59:59' });

async function deposited(customerId: string, amount: number): Promise<string> {
  const response = await send('enterprise', 'post', '/credits/actions/deposit-credits', { customer_id: customerId, amount, partner_id: 'P-1' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.credit_id as string;
}

const CREDITS: ContractRow[] = [
  ...BOTH.map((iface): ContractRow => ({
    method: 'get',
    specPath: '/credits',
    iface,
    status: 200,
    spec: CURRENT,
    differs: NEVER_EXPIRES,
    adapt: (body) => ({ data: { ...body.data, credits: body.data.credits.map(withValidTo) } }),
    send: async () => {
      await deposited(JANA, 5);
      return send(iface, 'get', `/credits?customer_id=${JANA}`);
    },
  })),
  ...BOTH.map((iface): ContractRow => ({
    method: 'get',
    specPath: '/credits/{credit_id}',
    iface,
    status: 200,
    spec: CURRENT,
    differs: NEVER_EXPIRES,
    adapt: (body) => ({ data: withValidTo(body.data) }),
    send: async () => send(iface, 'get', `/credits/${await deposited(JANA, 5)}`),
  })),
  {
    method: 'get',
    specPath: '/credits/{credit_id}',
    iface: 'enterprise',
    status: 404,
    spec: CURRENT,
    complete: true,
    send: () => send('enterprise', 'get', `/credits/${UNKNOWN_ID}`),
  },
  {
    method: 'get',
    specPath: '/credits/{credit_id}',
    iface: 'customer',
    status: 400,
    reason: 'not_belong_to_logged_in_customer',
    spec: CURRENT,
    complete: true,
    send: async () => send('customer', 'get', `/credits/${await deposited(PETR, 5)}`),
  },
  {
    method: 'post',
    specPath: '/credits/actions/deposit-credits',
    iface: 'enterprise',
    status: 201,
    spec: CURRENT,
    send: () => send('enterprise', 'post', '/credits/actions/deposit-credits', { customer_id: PETR, amount: 10, partner_id: 'P-1' }),
  },
  {
    method: 'post',
    specPath: '/credits/actions/deposit-credits',
    iface: 'enterprise',
    status: 400,
    reason: 'not_found',
    spec: CURRENT,
    complete: true,
    send: () => send('enterprise', 'post', '/credits/actions/deposit-credits', { customer_id: UNKNOWN_ID, amount: 10, partner_id: 'P-1' }),
  },
  {
    method: 'post',
    specPath: '/credits/actions/reduce-credits',
    iface: 'enterprise',
    status: 201,
    spec: CURRENT,
    send: async () => {
      await deposited(PETR, 1);
      return send('enterprise', 'post', '/credits/actions/reduce-credits', { customer_id: PETR, amount: 1, partner_id: 'P-1' });
    },
  },
  {
    method: 'post',
    specPath: '/credits/actions/reduce-credits',
    iface: 'enterprise',
    status: 400,
    reason: 'not_allowed_value',
    spec: CURRENT,
    complete: true,
    send: () => send('enterprise', 'post', '/credits/actions/reduce-credits', { customer_id: PETR, amount: 1_000_000, partner_id: 'P-1' }),
  },
  {
    method: 'post',
    specPath: '/credits/actions/transfer-credits',
    iface: 'enterprise',
    status: 204,
    spec: CURRENT,
    send: async () => {
      await deposited(JANA, 2);
      return send('enterprise', 'post', '/credits/actions/transfer-credits', {
        original_customer_id: JANA,
        new_customer_id: PETR,
        amount: 2,
        credit_type_id: 'merge',
      });
    },
  },
  {
    method: 'post',
    specPath: '/credits/actions/transfer-credits',
    iface: 'enterprise',
    status: 400,
    reason: 'required',
    spec: CURRENT,
    complete: true,
    send: () => send('enterprise', 'post', '/credits/actions/transfer-credits', { original_customer_id: JANA, amount: 2 }),
  },
  ...['deposit-credits', 'reduce-credits', 'transfer-credits'].map((action): ContractRow => ({
    method: 'post',
    specPath: `/credits/actions/${action}`,
    iface: 'customer',
    status: 403,
    spec: CURRENT,
    complete: true,
    send: () => send('customer', 'post', `/credits/actions/${action}`, { customer_id: JANA, amount: 1 }),
  })),
];

describe.each([
  ['vouchers made from rewards (2021 file)', VOUCHERS, contract],
  ['the wallet overviews (2021 file)', WALLET, contract],
  ['the credit resource (today’s spec)', CREDITS, CURRENT],
])('%s conform to the schema of their operation', (_group, rows, spec) => contractRows(rows, spec));
