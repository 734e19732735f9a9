import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { janaSession } from '../../support/customers-fixtures.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer, enterpriseGetter } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

const CAPPUCCINO_REWARD = `de${(0x601).toString(16).padStart(24, '0')}`;
const DEMO_VOUCHER = `de${(0x701).toString(16).padStart(24, '0')}`;

let server: TestServer;
let auth: Record<string, string>;
const get = enterpriseGetter(
  () => server,
  () => auth,
);
/** A customer-interface token with no customer logged in. */
let anonymous: Record<string, string>;
const reason = (response: Awaited<ReturnType<typeof call>>) => expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0];

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
  anonymous = (await demoToken(server)).headers;
  // Petr: two more vouchers, one expired; Eva: one.
  server.app.node.writes.write(null, (tx) => {
    tx.insert('vouchers', {
      id: 'de0000000000000000000007a1',
      customer_id: DEMO_IDS.customerPetr,
      reward_id: CAPPUCCINO_REWARD,
      code: 'PETR-1',
      value_minor: 6500,
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_to: '2099-12-31T00:00:00.000Z',
    });
    tx.insert('vouchers', {
      id: 'de0000000000000000000007a2',
      customer_id: DEMO_IDS.customerPetr,
      reward_id: CAPPUCCINO_REWARD,
      code: 'PETR-OLD',
      value_minor: 6500,
      valid_from: '2025-01-01T00:00:00.000Z',
      valid_to: '2025-12-31T00:00:00.000Z',
    });
    tx.insert('vouchers', {
      id: 'de0000000000000000000007a3',
      customer_id: DEMO_IDS.customerEva,
      reward_id: CAPPUCCINO_REWARD,
      code: 'EVA-1',
      value_minor: 6500,
    });
  });
});
afterAll(() => server.close());

describe('vouchers', () => {
  it('lists vouchers with their reward, counting every match', async () => {
    const response = await get('/vouchers?count=2');
    expect(response.status).toBe(200);
    expect(response.body.data.total_items).toBe(4);
    expect(response.body.data.vouchers).toHaveLength(2);
    const demo = (await get(`/vouchers/${DEMO_VOUCHER}`)).body.data;
    expect(demo).toMatchObject({
      voucher_id: DEMO_VOUCHER,
      customer_id: DEMO_IDS.customerJana,
      code: 'CAPPU-2026',
      store_id: null,
      applied_date: null,
      reward: {
        reward_id: CAPPUCCINO_REWARD,
        code: 'FREE-CAPPUCCINO',
        points_cost: 100,
        has_product_condition: true,
        has_group_condition: false,
        is_automated: false,
      },
    });
  });

  it('filters by customer, code, validity and application', async () => {
    const codes = async (query: string) =>
      (await get(`/vouchers?${query}&sort_field=code`)).body.data.vouchers.map((voucher: { code: string }) => voucher.code);
    expect(await codes(`customer_id=${DEMO_IDS.customerPetr}`)).toEqual(['PETR-1', 'PETR-OLD']);
    expect(await codes('code=EVA-1')).toEqual(['EVA-1']);
    expect(await codes('is_valid=false')).toEqual(['PETR-OLD']);
    expect(await codes('is_valid=true')).toEqual(['CAPPU-2026', 'EVA-1', 'PETR-1']);
    expect(await codes('is_applied=true')).toEqual([]);
  });

  it('apply-voucher (204) records where and when; the voucher then counts as applied, and a second application is refused', async () => {
    const apply = (body: unknown) =>
      call('POST', `${server.api('enterprise')}/vouchers/de0000000000000000000007a1/actions/apply-voucher`, { headers: auth, body });
    expect((await apply({ store_id: DEMO_IDS.storeAirport, date_applied: '2026-11-21 09:15:00' })).status).toBe(204);
    const applied = (await get('/vouchers/de0000000000000000000007a1')).body.data;
    expect(applied).toMatchObject({ store_id: DEMO_IDS.storeAirport, applied_date: '2026-11-21 09:15:00' });
    expect((await get('/vouchers?is_applied=true')).body.data.vouchers.map((voucher: { code: string }) => voucher.code)).toEqual(['PETR-1']);
    expect((await get(`/vouchers?store_id=${DEMO_IDS.storeAirport}`)).body.data.total_items).toBe(1);
    expect(reason(await apply({ date_applied: '2026-11-21 10:00:00' }))).toMatchObject({ name: 'voucher_id', reason: 'voucher_already_used' });
  });

  it('refuses a bad date, an unknown store, an unknown voucher and a bad filter', async () => {
    const url = `${server.api('enterprise')}/vouchers/de0000000000000000000007a3/actions/apply-voucher`;
    expect(reason(await call('POST', url, { headers: auth, body: { date_applied: 'today' } }))).toMatchObject({
      name: 'date_applied',
      reason: 'invalid_value_format',
    });
    expect(
      reason(await call('POST', url, { headers: auth, body: { store_id: 'ffffffffffffffffffffffffff', date_applied: '2026-11-21 10:00:00' } })),
    ).toMatchObject({ name: 'store_id', reason: 'not_found' });
    expectError(await get('/vouchers/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
    expect(reason(await get('/vouchers?is_valid=maybe'))).toMatchObject({ name: 'is_valid' });
  });

  it('sorts both ways', async () => {
    const up = (await get('/vouchers?sort_field=code&sort_direction=ASC')).body.data.vouchers.map((voucher: { code: string }) => voucher.code);
    const down = (await get('/vouchers?sort_field=code&sort_direction=DESC')).body.data.vouchers.map((voucher: { code: string }) => voucher.code);
    expect(down).toEqual([...up].reverse());
  });

  it('a logged-in customer sees only their own vouchers', async () => {
    const token = await demoToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: token.headers,
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
    });
    const own = await call('GET', `${server.api('customer')}/vouchers`, { headers: token.headers });
    expect(own.body.data.vouchers.map((voucher: { code: string }) => voucher.code)).toEqual(['CAPPU-2026']);
    expect(reason(await call('GET', `${server.api('customer')}/vouchers/de0000000000000000000007a3`, { headers: token.headers })).reason).toBe(
      'not_belong_to_logged_in_customer',
    );
  });

  it('a logged-in customer applies its own voucher (204) but not another customer’s', async () => {
    const jana = await janaSession(server);
    const apply = (id: string) =>
      call('POST', `${server.api('customer')}/vouchers/${id}/actions/apply-voucher`, {
        headers: jana.headers,
        body: { date_applied: '2026-11-22 10:00:00' },
      });
    expect(reason(await apply('de0000000000000000000007a3'))).toMatchObject({ name: 'voucher_id', reason: 'not_belong_to_logged_in_customer' });
    expect((await get('/vouchers/de0000000000000000000007a3')).body.data.applied_date).toBeNull();
    const applied = await apply(DEMO_VOUCHER);
    expect(applied.status).toBe(204);
    expect(applied.body).toBe('');
    expect((await get(`/vouchers/${DEMO_VOUCHER}`)).body.data).toMatchObject({ applied_date: '2026-11-22 10:00:00', store_id: null });
  });
});

describe('rewards', () => {
  it('lists the program rewards in the Reward shape and answers one by id; an unknown id 404', async () => {
    const list = await get('/rewards?sort_field=priority');
    expect(list.body.data.total_items).toBe(5);
    expect(list.body.data.rewards.map((reward: { code: string }) => reward.code)).toEqual([
      'FREE-CAPPUCCINO',
      'BAKERY-10',
      'MORNING-PASTRY',
      'AIRPORT-50',
      'AIRPORT-5PCT',
    ]);
    const morning = list.body.data.rewards[2];
    expect(morning).toMatchObject({ valid_time_from: '06:00:00', valid_time_to: '10:00:00', has_group_condition: true, store_list: [] });
    expect((await get(`/rewards/${morning.reward_id}`)).body.data).toEqual(morning);
    expectError(await get('/rewards/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
  });

  it('lists the stores a reward is limited to as Store records, as the 2021 schema types store_list', async () => {
    const airport = (await get('/rewards/de000000000000000000000604')).body.data;
    expect(airport.store_list).toEqual([expect.objectContaining({ store_id: DEMO_IDS.storeAirport, store_code: 'PRG-02', name: 'Prague Airport' })]);
  });
});

listChecks(
  'GET /vouchers (enterprise)',
  () => ({ url: `${server.api('enterprise')}/vouchers`, headers: auth, plural: 'vouchers', idField: 'voucher_id' }),
  [
    ['is_valid=maybe', 'is_valid'],
    ['is_applied=2', 'is_applied'],
  ],
);

listChecks('GET /rewards (enterprise)', () => ({
  url: `${server.api('enterprise')}/rewards`,
  headers: auth,
  plural: 'rewards',
  idField: 'reward_id',
}));

listChecks('GET /rewards (customer)', () => ({
  url: `${server.api('customer')}/rewards`,
  headers: anonymous,
  plural: 'rewards',
  idField: 'reward_id',
}));
