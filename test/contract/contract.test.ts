/**
 * Contract: every operation's answer validated against the response schema of the same
 * operation in spec/carecloud-openapi-2021.yaml, the version interface.md was written
 * from. Where interface.md deliberately differs, the row says so.
 *
 * The calls of the real PHP SDK (github.com/crmcarecloud/api-php-client, client version 4.5)
 * that the README names ("Clients built for the service") are rows too, sent as that SDK
 * sends them: its Accept-Language header; a list's count and offset always, a boolean as
 * `true`/`false`, a list parameter as `name[]=` once a value, every value url-encoded as PHP's
 * urlencode does; a JSON body of its models' field types (cashdesk_number an integer, money
 * and quantities numbers, bill_item_id a string, the token's external_application_id at the
 * top level).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { OpenApiContract } from '../support/openapi.js';
import { CAPPUCCINO_REWARD, insertVoucher } from '../support/vouchers-fixtures.js';
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
  /** The PHP SDK's method this row sends as it does (`PurchasesApi::postPurchaseSend`); the README names each. */
  sdk?: string;
  call(session: Session): Promise<{ status: number; body: unknown }>;
}

const NULLS = 'empty fields are null (interface.md "Nullable fields are returned as null when empty")' as const;

const contract = new OpenApiContract();

/** interface.md: cashdesk_number is an integer; the 2021 schema types it as a string. */
function cashdeskNumbersAsText(body: any) {
  return {
    data: {
      ...body.data,
      purchases: body.data.purchases.map((p: any) => ({ ...p, cashdesk_number: p.cashdesk_number === null ? null : String(p.cashdesk_number) })),
    },
  };
}
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

/** A query value as the PHP SDK puts it in a URL: a boolean as `true`/`false`, url-encoded as PHP's urlencode does. */
function phpEncoded(value: string | number | boolean): string {
  return encodeURIComponent(String(value))
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

/** A query string as the PHP SDK builds it: the parameters in the order given, a list as `name[]=` once a value. */
function sdkQuery(query: Record<string, string | number | boolean | string[]>): string {
  const parts = Object.entries(query).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((item) => `${name}[]=${phpEncoded(item)}`) : [`${name}=${phpEncoded(value)}`],
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** A list's paging the PHP SDK always sends: its defaults. */
const SDK_PAGING = { count: 100, offset: 0 };

/** A call as the PHP SDK sends it: its Accept-Language header with the credentials, the query it builds and a JSON body. */
function sdkCall(
  method: 'GET' | 'POST',
  iface: 'enterprise' | 'customer',
  path: string,
  options: { query?: Record<string, string | number | boolean | string[]>; body?: unknown; auth?: (s: Session) => Record<string, string> } = {},
) {
  return (s: Session) =>
    call(method, `${s.server.api(iface)}${path}${sdkQuery(options.query ?? {})}`, {
      headers: { 'Accept-Language': 'cs, en-gb;q=0.8', ...(options.auth ?? ((session: Session) => session.enterprise))(s) },
      body: options.body,
    });
}

/** The bill of the SDK's Bill model: total_price, quantities and amounts numbers, bill_item_id a string. */
const SDK_BILL = {
  bill_id: 'sdk-1',
  bill_number: 'SDK-1',
  payment_time: '2026-11-20T09:30:00+01:00',
  currency_id: 'CZK',
  total_price: 165.0,
  bill_items: [
    {
      plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }],
      plu_name: 'Cappuccino',
      quantity: 2.0,
      price: 65.0,
      paid_amount: 130.0,
      bill_item_id: '1',
    },
    {
      plu_ids: [{ list_code: 'GLOBAL', code: '859000772' }],
      plu_name: 'Croissant',
      quantity: 1.0,
      price: 35.0,
      paid_amount: 35.0,
      bill_item_id: '2',
    },
  ],
};

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
    adapt: cashdeskNumbersAsText,
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

/** The PHP SDK's calls a POS and a back office make, each as the SDK sends it. */
const SDK_OPERATIONS: Operation[] = [
  {
    sdk: 'UsersApi::postUserLogin',
    method: 'post',
    specPath: '/users/actions/login',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/users/actions/login', {
      auth: () => ({}),
      body: {
        user_external_application_id: demoCredentials.external_application_id,
        login: demoCredentials.pos_login,
        password: demoCredentials.pos_password,
      },
    }),
  },
  {
    sdk: 'CustomerExternalApplicationsApi::getCustomerExternalApps',
    method: 'get',
    specPath: '/customer-external-applications',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('GET', 'enterprise', '/customer-external-applications', { query: SDK_PAGING }),
  },
  {
    sdk: 'CardsApi::getCards',
    method: 'get',
    specPath: '/cards',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', '/cards', { query: { ...SDK_PAGING, card_number: demoCredentials.customer_card, is_valid: true } }),
  },
  {
    sdk: 'CustomersApi::getCustomer',
    method: 'get',
    specPath: '/customers/{customer_id}',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', `/customers/${DEMO_IDS.customerJana}`),
  },
  {
    sdk: 'CustomersApi::postCustomer',
    method: 'post',
    specPath: '/customers',
    status: 201,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/customers', {
      body: {
        customer: {
          personal_information: {
            gender: 2,
            first_name: 'Eva',
            last_name: 'Dvořáková',
            birthdate: '1990-04-02',
            email: 'sdk.customer@example.com',
            phone: '+420777123456',
            language_id: 'cs',
            store_id: DEMO_IDS.storeCentral,
            agreement: { agreement_gtc: 1, agreement_marketing_communication: 0 },
          },
        },
      },
    }),
  },
  {
    sdk: 'CustomersApi::getSubCustomerCards',
    method: 'get',
    specPath: '/customers/{customer_id}/cards',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', `/customers/${DEMO_IDS.customerJana}/cards`, { query: SDK_PAGING }),
  },
  {
    sdk: 'PurchasesApi::postPurchaseRecommendedRewards',
    method: 'post',
    specPath: '/purchases/actions/recommended-best-rewards',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/purchases/actions/recommended-best-rewards', {
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: demoCredentials.customer_card,
        reward_list_type: 'A',
        bill: SDK_BILL,
      },
    }),
  },
  {
    sdk: 'PurchasesApi::postPurchaseAcceptPayment',
    method: 'post',
    specPath: '/purchases/actions/accept-payment',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/purchases/actions/accept-payment', {
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: demoCredentials.customer_card,
        payment_type: 'S',
        max_points: 10.0,
        max_credit: 0.0,
        bill: SDK_BILL,
      },
    }),
  },
  {
    sdk: 'PurchasesApi::postPurchaseSend',
    method: 'post',
    specPath: '/purchases/actions/send-purchase',
    status: 201,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/purchases/actions/send-purchase', {
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: demoCredentials.customer_card,
        bill: {
          ...SDK_BILL,
          fiscal: true,
          canceled: false,
          payment_type: 'S',
          payment_recap: { credit_points: 10.0, amount_for_credit: 0.0, vouchers: [] },
        },
      },
    }),
  },
  {
    sdk: 'PurchasesApi::getPurchases',
    method: 'get',
    specPath: '/purchases',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    adapt: cashdeskNumbersAsText,
    call: sdkCall('GET', 'enterprise', '/purchases', {
      query: { ...SDK_PAGING, customer_id: DEMO_IDS.customerJana, purchase_items_extension: true },
    }),
  },
  {
    sdk: 'PointsApi::getPoints',
    method: 'get',
    specPath: '/points',
    status: 200,
    iface: 'enterprise',
    // A redemption has no valid_to: null, as interface.md returns an empty field.
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', '/points', { query: { ...SDK_PAGING, customer_id: DEMO_IDS.customerJana } }),
  },
  {
    sdk: 'PointsApi::postPointsAssign',
    method: 'post',
    specPath: '/points/actions/assign-points',
    status: 204,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/points/actions/assign-points', {
      body: { amount: 25.0, customer_id: DEMO_IDS.customerJana, note: 'Welcome' },
    }),
  },
  {
    sdk: 'PointsApi::postPointsRedemption',
    method: 'post',
    specPath: '/points/actions/reduce-points',
    status: 204,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', '/points/actions/reduce-points', { body: { amount: 5.5, customer_id: DEMO_IDS.customerJana } }),
  },
  {
    sdk: 'WalletApi::getWalletPoints',
    method: 'get',
    specPath: '/wallet/actions/points-overview',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('GET', 'enterprise', '/wallet/actions/points-overview', {
      query: { customer_id: DEMO_IDS.customerJana, date_from: '2026-01-01', date_to: '2026-12-31' },
    }),
  },
  {
    sdk: 'WalletApi::getWalletCredits',
    method: 'get',
    specPath: '/wallet/actions/credits-overview',
    status: 200,
    iface: 'enterprise',
    call: sdkCall('GET', 'enterprise', '/wallet/actions/credits-overview', { query: { customer_id: DEMO_IDS.customerJana } }),
  },
  {
    sdk: 'VouchersApi::getVouchers',
    method: 'get',
    specPath: '/vouchers',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', '/vouchers', {
      query: { ...SDK_PAGING, customer_id: DEMO_IDS.customerJana, is_valid: true, is_applied: false },
    }),
  },
  {
    sdk: 'VouchersApi::postVoucherApply',
    method: 'post',
    specPath: '/vouchers/{voucher_id}/actions/apply-voucher',
    status: 204,
    iface: 'enterprise',
    call: (s) =>
      sdkCall('POST', 'enterprise', `/vouchers/${insertVoucher(s.server, DEMO_IDS.customerJana, 'SDK-APPLY')}/actions/apply-voucher`, {
        body: { store_id: DEMO_IDS.storeCentral, date_applied: '2026-11-20 09:35:00' },
      })(s),
  },
  {
    sdk: 'RewardsApi::getRewards',
    method: 'get',
    specPath: '/rewards',
    status: 200,
    iface: 'enterprise',
    differs: NULLS,
    call: sdkCall('GET', 'enterprise', '/rewards', { query: SDK_PAGING }),
  },
  {
    sdk: 'RewardsApi::postRewardCreateVoucher',
    method: 'post',
    specPath: '/rewards/{reward_id}/actions/create-voucher',
    status: 201,
    iface: 'enterprise',
    call: sdkCall('POST', 'enterprise', `/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, { body: { customer_id: DEMO_IDS.customerJana } }),
  },
  {
    sdk: 'TokensApi::postToken',
    method: 'post',
    specPath: '/tokens',
    status: 201,
    iface: 'customer',
    call: sdkCall('POST', 'customer', '/tokens', {
      auth: () => basic(demoCredentials.api_user, ''),
      body: {
        device: { device_id: 'sdk-phone', device_system: 'Android 14', device_name: 'Pixel', device_type: 'phone' },
        setup: { language_id: 'cs', allowed_gps: false, allowed_notifications: true },
        external_application_id: demoCredentials.external_application_id,
      },
    }),
  },
  {
    sdk: 'TokensApi::postTokenLogin',
    method: 'post',
    specPath: '/tokens/{token_id}/actions/login',
    status: 200,
    iface: 'customer',
    call: (s) =>
      sdkCall('POST', 'customer', `/tokens/${s.customer.tokenId}/actions/login`, {
        auth: (session) => session.customer.headers,
        body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
      })(s),
  },
];

describe('responses conform to the 2021 OpenAPI schema of their operation', () => {
  for (const operation of [...OPERATIONS, ...SDK_OPERATIONS]) {
    const sent = operation.sdk ? `, as the PHP SDK's ${operation.sdk} sends it` : '';
    it(`${operation.method.toUpperCase()} ${operation.specPath} ${operation.status} (${operation.iface})${sent}`, async () => {
      const response = await operation.call(session);
      expect(response.status, JSON.stringify(response.body)).toBe(operation.status);
      if (operation.status === 204) {
        expect(response.body).toBe('');
        expect(contract.documentsNoBody(operation.method, operation.specPath, 204)).toBe(true);
        return;
      }
      const body = operation.adapt ? operation.adapt(response.body) : response.body;
      expect(contract.check(operation.method, operation.specPath, operation.status, body, { nullable: operation.differs === NULLS })).toEqual([]);
    });
  }
});

describe("the README's clients built for the service", () => {
  it("names the PHP SDK's calls these rows send, each once, and no other", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = /^### Clients built for the service\n([\s\S]*?)(?=^#)/m.exec(readme)?.[1] ?? '';
    const named = [...section.matchAll(/`(\w+Api::\w+)`/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(0);
    expect([...named].sort()).toEqual(SDK_OPERATIONS.map((operation) => operation.sdk).sort());
  });
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
