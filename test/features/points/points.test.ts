import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { SyncState } from '../../../src/sync/sync-state.js';
import { expectError } from '../../support/expect-error.js';
import { listChecks } from '../../support/list-checks.js';
import { call, demoPosLogin, demoToken, startTestServer, TestClock, type TestServer } from '../../support/server.js';
import { queuedChangeCount } from '../../support/outbox.js';

const { customerJana: JANA, customerPetr: PETR, customerEva: EVA } = DEMO_IDS;

async function balanceOf(server: TestServer, auth: Record<string, string>, customerId: string): Promise<number> {
  const response = await call('GET', `${server.api('enterprise')}/points?customer_id=${customerId}&count=1000`, { headers: auth });
  expect(response.status).toBe(200);
  return response.body.data.points.reduce((sum: number, point: { available_points: number }) => sum + point.available_points, 0);
}

const action = (server: TestServer, auth: Record<string, string>, name: string, body: unknown) =>
  call('POST', `${server.api('enterprise')}/points/actions/${name}`, { headers: auth, body });

describe('points actions', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    auth = await demoPosLogin(server);
  });
  afterAll(() => server.close());

  it('assign-points adds a collection record (204) that GET /points shows with its points available', async () => {
    // Eva starts with no points; 12.5 points sent as a numeric string.
    expect((await action(server, auth, 'assign-points', { amount: '12.5', customer_id: EVA, partner_id: 'partner-1' })).status).toBe(204);
    const list = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}`, { headers: auth });
    expect(list.body.data.total_items).toBe(1);
    expect(list.body.data.points[0]).toMatchObject({
      customer_id: EVA,
      assigned_points: 12.5,
      available_points: 12.5,
      partner_id: 'partner-1',
      state: 1,
    });
  });

  it("points collected expire at the end of the day, in the chain's time zone, that the program's validity ends in", async () => {
    // 2026-03-10 23:30 in Prague (22:30 UTC); 365 days on is 2027-03-10 there, and both
    // records stay valid until that day's last second in Prague (22:59:59.999 UTC).
    const prague = await startTestServer({ config: { time_zone: 'Europe/Prague' }, clock: new TestClock(Date.parse('2026-03-10T22:30:00Z')) });
    try {
      const pos = await demoPosLogin(prague);
      expect((await action(prague, pos, 'assign-points', { amount: 5, customer_id: EVA })).status).toBe(204);
      expect((await action(prague, pos, 'assign-points', { amount: 7, customer_id: EVA })).status).toBe(204);
      const list = await call('GET', `${prague.api('enterprise')}/points?customer_id=${EVA}`, { headers: pos });
      expect(list.body.data.points.map((point: { valid_to: string }) => point.valid_to)).toEqual(['2027-03-10 23:59:59', '2027-03-10 23:59:59']);
      const stored = prague.app.node.db
        .prepare<[string], { valid_to: string }>('SELECT DISTINCT valid_to FROM point_records WHERE customer_id = ?')
        .all(EVA);
      expect(stored).toEqual([{ valid_to: '2027-03-10T22:59:59.999Z' }]);
    } finally {
      await prague.close();
    }
  });

  it('reduce-points beyond the balance answers not_enough_points_for_payment and writes nothing', async () => {
    // Petr has 80 points from the demo.
    const changesBefore = queuedChangeCount(server);
    const response = await action(server, auth, 'reduce-points', { amount: 80.001, customer_id: PETR });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'amount',
      reason: 'not_enough_points_for_payment',
    });
    expect(queuedChangeCount(server)).toBe(changesBefore);
    expect(await balanceOf(server, auth, PETR)).toBe(80);
  });

  it('a transfer then a reduce: 250 − 100 moved to Petr, then 30 redeemed from Jana leaves 120', async () => {
    // Jana 250, Petr 80. Transfer 100 Jana→Petr: Jana 150, Petr 180. Reduce 30 from Jana: 120.
    expect((await action(server, auth, 'transfer-points', { original_customer_id: JANA, new_customer_id: PETR, amount: 100 })).status).toBe(204);
    expect((await action(server, auth, 'reduce-points', { amount: 30, customer_id: JANA })).status).toBe(204);
    expect(await balanceOf(server, auth, JANA)).toBe(120);
    expect(await balanceOf(server, auth, PETR)).toBe(180);
    const linked = server.app.node.db
      .prepare(
        "SELECT a.customer_id AS from_customer, b.customer_id AS to_customer FROM point_records a JOIN point_records b ON b.id = a.linked_point_id WHERE a.kind = 'redemption' AND a.point_type_id = 'transfer'",
      )
      .get();
    expect(linked).toEqual({ from_customer: JANA, to_customer: PETR });
  });

  it('a redemption shows negative assigned points and nothing available', async () => {
    const list = await call('GET', `${server.api('enterprise')}/points?customer_id=${JANA}&count=1000`, { headers: auth });
    expect(list.body.data.points.find((point: { assigned_points: number }) => point.assigned_points < 0)).toMatchObject({
      assigned_points: -100,
      available_points: 0,
    });
  });

  it('refuses unknown customers, zero or malformed amounts and transfers to oneself', async () => {
    const cases: [string, unknown, string, string][] = [
      ['assign-points', { amount: 5, customer_id: 'ffffffffffffffffffffffffff' }, 'customer_id', 'not_found'],
      ['assign-points', { amount: 0, customer_id: EVA }, 'amount', 'not_allowed_value'],
      ['reduce-points', { amount: 'ten', customer_id: EVA }, 'amount', 'invalid_value_format'],
      ['reduce-points', { customer_id: EVA }, 'amount', 'required'],
      ['transfer-points', { original_customer_id: EVA, new_customer_id: EVA, amount: 1 }, 'new_customer_id', 'not_allowed_value'],
    ];
    for (const [name, body, field, reason] of cases) {
      const response = await action(server, auth, name, body);
      expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: field, reason });
    }
  });

  it('are offered in the enterprise interface only', async () => {
    const token = await demoToken(server);
    expectError(
      await call('POST', `${server.api('customer')}/points/actions/assign-points`, { headers: token.headers, body: {} }),
      403,
      'interface_not_allowed_exception',
    );
  });
});

describe('point reads', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    auth = await demoPosLogin(server);
    for (const amount of [5, 7, 9]) await action(server, auth, 'assign-points', { amount, customer_id: EVA });
  });
  afterAll(() => server.close());

  it('GET /points/{id} answers one record; an unknown id 404', async () => {
    const list = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}`, { headers: auth });
    const first = list.body.data.points[0];
    const one = await call('GET', `${server.api('enterprise')}/points/${first.point_id}`, { headers: auth });
    expect(one.body.data).toEqual(first);
    expectError(await call('GET', `${server.api('enterprise')}/points/ffffffffffffffffffffffffff`, { headers: auth }), 404, 'not_found_exception');
  });

  it('pages, sorts and counts every match', async () => {
    const all = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}&sort_field=point_id&sort_direction=DESC`, { headers: auth });
    const page = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}&count=2&offset=1&sort_field=point_id&sort_direction=DESC`, {
      headers: auth,
    });
    expect(page.body.data.total_items).toBe(3);
    expect(page.body.data.points).toEqual(all.body.data.points.slice(1, 3));
    const byAmount = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}&sort_field=assigned_points`, { headers: auth });
    expect(byAmount.status).toBe(400);
    const beyond = await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}&offset=10`, { headers: auth });
    expect(beyond.body.data).toEqual({ points: [], total_items: 3 });
  });

  it('filters by point type and creation time; a malformed time answers invalid_value_format', async () => {
    const manual = await call('GET', `${server.api('enterprise')}/points?point_type_id=manual`, { headers: auth });
    expect(manual.body.data.total_items).toBe(3);
    const future = await call('GET', `${server.api('enterprise')}/points?create_point_time_from=2099-01-01 00:00:00`, { headers: auth });
    expect(future.body.data.total_items).toBe(0);
    const past = await call('GET', `${server.api('enterprise')}/points?create_point_time_to=2026-01-31 00:00:00`, { headers: auth });
    expect(past.body.data.total_items).toBe(1);
    const bad = await call('GET', `${server.api('enterprise')}/points?create_point_time_from=yesterday`, { headers: auth });
    expect(expectError(bad, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('invalid_value_format');
  });

  it('a logged-in customer sees only their own points; naming another customer answers not_belong_to_logged_in_customer', async () => {
    const token = await demoToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: token.headers,
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
    });
    const own = await call('GET', `${server.api('customer')}/points`, { headers: token.headers });
    expect(own.body.data.points.every((point: { customer_id: string }) => point.customer_id === JANA)).toBe(true);
    expect(own.body.data.total_items).toBe(1);
    const other = await call('GET', `${server.api('customer')}/points?customer_id=${EVA}`, { headers: token.headers });
    expect(expectError(other, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
    const evasRecord = (await call('GET', `${server.api('enterprise')}/points?customer_id=${EVA}`, { headers: auth })).body.data.points[0].point_id;
    const detail = await call('GET', `${server.api('customer')}/points/${evasRecord}`, { headers: token.headers });
    expect(expectError(detail, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
  });

  listChecks(
    'GET /points (enterprise)',
    () => ({ url: `${server.api('enterprise')}/points`, headers: auth, plural: 'points', idField: 'point_id' }),
    [
      ['create_point_time_from=yesterday', 'create_point_time_from'],
      ['create_point_time_to=2026-13-01 00:00:00', 'create_point_time_to'],
    ],
  );
});

describe('offline redemption limits of a store with a hub', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  const synced = (server: TestServer, at: number) => new SyncState(server.app.node.db).set('last_success_at', new Date(at).toISOString());

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        'hub.url': 'http://127.0.0.1:9',
        'offline.redemption_margin_points': 50,
        'offline.daily_redemption_cap_points': 120,
        'offline.max_age_hours': 24,
      },
    });
    auth = await demoPosLogin(server);
  });
  afterAll(() => server.close());

  it('redeems nothing before the first sync, while earning goes on', async () => {
    const reduce = await action(server, auth, 'reduce-points', { amount: 1, customer_id: JANA });
    expect(expectError(reduce, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('offline_redemption_limit');
    expect((await action(server, auth, 'assign-points', { amount: 1, customer_id: JANA })).status).toBe(204);
  });

  it("holds the margin back: of Jana's 251 points, 201 can be redeemed", async () => {
    synced(server, server.clock.now());
    const tooMuch = await action(server, auth, 'reduce-points', { amount: 202, customer_id: JANA });
    expect(expectError(tooMuch, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_enough_points_for_payment');
  });

  it('caps what one customer redeems here per day', async () => {
    expect((await action(server, auth, 'reduce-points', { amount: 100, customer_id: JANA })).status).toBe(204);
    const over = await action(server, auth, 'reduce-points', { amount: 21, customer_id: JANA });
    expect(expectError(over, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('offline_redemption_limit');
    expect((await action(server, auth, 'reduce-points', { amount: 20, customer_id: JANA })).status).toBe(204);
  });

  it('stops redeeming once the last sync is older than offline.max_age_hours', async () => {
    synced(server, server.clock.now() - 25 * 3_600_000);
    const stale = await action(server, auth, 'reduce-points', { amount: 1, customer_id: PETR });
    expect(expectError(stale, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('offline_redemption_limit');
  });
});
