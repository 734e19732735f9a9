/**
 * Contract: every operation's answer validated against the response schema of the same
 * operation in spec/carecloud-openapi-2021.yaml, the version interface.md was written
 * from. Where interface.md deliberately differs, the row says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { OpenApiContract } from '../support/openapi.js';
import { basic, call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';

interface Session {
  server: TestServer;
  enterprise: Record<string, string>;
  customer: { tokenId: string; headers: Record<string, string> };
}

interface Operation {
  /** Method and path template as the spec names them. */
  method: string;
  specPath: string;
  status: number;
  iface: 'enterprise' | 'customer';
  /** Where interface.md deliberately differs from the 2021 schema, the difference. */
  differs?: 'empty fields are null (interface.md "Nullable fields are returned as null when empty")';
  /** A further deliberate difference, undone before the check; its comment names it. */
  adapt?(body: any): unknown;
  call(session: Session): Promise<{ status: number; body: unknown }>;
}

const NULLS = 'empty fields are null (interface.md "Nullable fields are returned as null when empty")' as const;

const contract = new OpenApiContract();
/** Jana's demo point record. */
const DEMO_POINT_RECORD = `de${(0x501).toString(16).padStart(24, '0')}`;
/** Two cappuccinos and a croissant, as a POS sends them. */
const DEMO_BILL = {
  bill_id: 'contract-1',
  bill_number: 'C-1',
  payment_time: '2026-11-20T08:30:00+01:00',
  currency_id: 'CZK',
  total_price: '165.00',
  bill_items: [
    { plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 2, price: 65, paid_amount: 130, bill_item_id: 1 },
    { plu_ids: [{ list_code: 'GLOBAL', code: '859000772' }], quantity: 1, price: 35, paid_amount: 35, bill_item_id: '2' },
  ],
};
let session: Session;

beforeAll(async () => {
  const server = await startTestServer();
  const enterprise = await demoPosLogin(server);
  const customer = await demoToken(server);
  const login = await call('POST', `${server.api('customer')}/tokens/${customer.tokenId}/actions/login`, {
    headers: customer.headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  expect(login.status).toBe(200);
  session = { server, enterprise, customer };
});
afterAll(() => session.server.close());

const enterpriseGet = (path: string) => (s: Session) => call('GET', `${s.server.api('enterprise')}${path}`, { headers: s.enterprise });

const OPERATIONS: Operation[] = [
  {
    method: 'post',
    specPath: '/users/actions/login',
    status: 200,
    iface: 'enterprise',
    call: (s) =>
      call('POST', `${s.server.api('enterprise')}/users/actions/login`, {
        body: {
          user_external_application_id: demoCredentials.external_application_id,
          login: demoCredentials.pos_login,
          password: demoCredentials.pos_password,
        },
      }),
  },
  {
    method: 'post',
    specPath: '/tokens',
    status: 201,
    iface: 'customer',
    call: (s) =>
      call('POST', `${s.server.api('customer')}/tokens`, {
        headers: basic(demoCredentials.api_user, ''),
        body: { device: { device_id: 'contract' }, setup: { external_application_id: demoCredentials.external_application_id } },
      }),
  },
  {
    method: 'post',
    specPath: '/tokens/{token_id}/actions/login',
    status: 200,
    iface: 'customer',
    call: (s) =>
      call('POST', `${s.server.api('customer')}/tokens/${s.customer.tokenId}/actions/login`, {
        headers: s.customer.headers,
        body: { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password },
      }),
  },
  {
    method: 'get',
    specPath: '/tokens/{token_id}/actions/auth-token',
    status: 200,
    iface: 'customer',
    call: (s) =>
      call(
        'GET',
        `${s.server.api('customer')}/tokens/${s.customer.tokenId}/actions/auth-token?external_application_id=${demoCredentials.external_application_id}&token_type=2`,
        {
          headers: s.customer.headers,
        },
      ),
  },
  {
    method: 'get',
    specPath: '/customer-external-applications',
    status: 200,
    iface: 'enterprise',
    call: enterpriseGet('/customer-external-applications'),
  },
  {
    method: 'get',
    specPath: '/customer-external-applications/{customer_external_application_id}',
    status: 200,
    iface: 'enterprise',
    call: enterpriseGet(`/customer-external-applications/${demoCredentials.external_application_id}`),
  },
  {
    method: 'get',
    specPath: '/customer-external-applications/{customer_external_application_id}',
    status: 404,
    iface: 'enterprise',
    call: enterpriseGet('/customer-external-applications/ffffffffffffffffffffffffff'),
  },
  {
    method: 'get',
    specPath: '/customer-external-applications',
    status: 400,
    iface: 'enterprise',
    call: enterpriseGet('/customer-external-applications?count=5000'),
  },
  { method: 'get', specPath: '/vouchers', status: 200, iface: 'enterprise', differs: NULLS, call: enterpriseGet('/vouchers') },
  {
    method: 'get',
    specPath: '/vouchers/{voucher_id}',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: enterpriseGet(`/vouchers/de${(0x701).toString(16).padStart(24, '0')}`),
  },
  {
    method: 'get',
    specPath: '/purchases',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    // interface.md: cashdesk_number is an integer; the 2021 schema types it as a string.
    adapt: (body) => ({
      data: {
        ...body.data,
        purchases: body.data.purchases.map((p: any) => ({ ...p, cashdesk_number: p.cashdesk_number === null ? null : String(p.cashdesk_number) })),
      },
    }),
    call: enterpriseGet('/purchases?purchase_items_extension=true'),
  },
  { method: 'get', specPath: '/stores', status: 200, iface: 'enterprise', differs: NULLS, call: enterpriseGet('/stores') },
  { method: 'get', specPath: '/products', status: 200, iface: 'enterprise', call: enterpriseGet('/products') },
  {
    method: 'get',
    specPath: '/cards',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: enterpriseGet(`/cards?card_number=${demoCredentials.customer_card}`),
  },
  { method: 'get', specPath: '/points', status: 200, iface: 'enterprise', call: enterpriseGet(`/points?customer_id=${DEMO_IDS.customerJana}`) },
  { method: 'get', specPath: '/points/{point_id}', status: 200, iface: 'enterprise', call: enterpriseGet(`/points/${DEMO_POINT_RECORD}`) },
  { method: 'get', specPath: '/points/{point_id}', status: 404, iface: 'enterprise', call: enterpriseGet('/points/ffffffffffffffffffffffffff') },
  {
    method: 'post',
    specPath: '/purchases/actions/recommended-best-rewards',
    status: 200,
    iface: 'enterprise',
    call: (s) =>
      call('POST', `${s.server.api('enterprise')}/purchases/actions/recommended-best-rewards`, {
        headers: s.enterprise,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: '1',
          card_number: demoCredentials.customer_card,
          reward_list_type: 'A',
          bill: DEMO_BILL,
        },
      }),
  },
  {
    method: 'post',
    specPath: '/purchases/actions/accept-payment',
    status: 200,
    iface: 'enterprise',
    call: (s) =>
      call('POST', `${s.server.api('enterprise')}/purchases/actions/accept-payment`, {
        headers: s.enterprise,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1,
          card_number: demoCredentials.customer_card,
          payment_type: 'S',
          max_points: '10',
          bill: DEMO_BILL,
        },
      }),
  },
  {
    method: 'post',
    specPath: '/purchases/actions/send-purchase',
    status: 201,
    iface: 'enterprise',
    call: (s) =>
      call('POST', `${s.server.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: s.enterprise,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1,
          card_number: demoCredentials.customer_card,
          bill: { ...DEMO_BILL, payment_type: 'S' },
        },
      }),
  },
  {
    method: 'get',
    specPath: '/customer-external-applications',
    status: 401,
    iface: 'enterprise',
    call: (s) => call('GET', `${s.server.api('enterprise')}/customer-external-applications`),
  },
];

describe('responses conform to the 2021 OpenAPI schema of their operation', () => {
  for (const operation of OPERATIONS) {
    it(`${operation.method.toUpperCase()} ${operation.specPath} ${operation.status} (${operation.iface})`, async () => {
      const response = await operation.call(session);
      expect(response.status).toBe(operation.status);
      const body = operation.adapt ? operation.adapt(response.body) : response.body;
      expect(contract.check(operation.method, operation.specPath, operation.status, body, { nullable: operation.differs === NULLS })).toEqual([]);
    });
  }
});

describe('the contract check itself', () => {
  it('rejects a body whose fields have the wrong types', () => {
    const wrong = { data: { customer_external_applications: [{ external_application_id: 5 }], total_items: 'many' } };
    expect(contract.check('get', '/customer-external-applications', 200, wrong)).not.toEqual([]);
  });

  it('with complete, refuses an answer missing a field the schema lists: a 201 without its id', () => {
    expect(contract.check('post', '/customers', 201, { data: {} })).toEqual([]);
    expect(contract.check('post', '/customers', 201, { data: {} }, { complete: true })).not.toEqual([]);
    expect(contract.check('post', '/customers', 201, { data: { customer_id: 'c' } }, { complete: true })).toEqual([]);
  });

  it('tells an answer documented without a body (a 204) from one with a body or none documented', () => {
    expect(contract.documentsNoBody('put', '/stores/{store_id}', 204)).toBe(true);
    expect(contract.documentsNoBody('post', '/stores', 201)).toBe(false);
    expect(contract.documentsNoBody('put', '/stores/{store_id}', 200)).toBe(false);
  });

  it('checks e-mails by the 2021 pattern once its over-escaping is undone: an address passes, a non-address fails', () => {
    const customer = (email: string) => ({ data: { customer_id: 'c', personal_information: { email } } });
    const errorsOf = (email: string) => contract.check('get', '/customers/{customer_id}', 200, customer(email), { nullable: true });
    expect(errorsOf('jana.novak@example.com').filter((error) => error.includes('email'))).toEqual([]);
    expect(errorsOf('not an address').filter((error) => error.includes('email'))).not.toEqual([]);
  });
});
