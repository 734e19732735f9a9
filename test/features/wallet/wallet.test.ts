/**
 * The wallet's points overviews (2021 spec) on the demo chain: what a customer earned and
 * redeemed in an interval, the balance now whatever the interval, and when points expire —
 * the points each record has left, by the day they expire in the configured zone (UTC here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, TestClock, type TestServer } from '../../support/server.js';

let server: TestServer;
let auth: Record<string, string>;
const wallet = (action: string, query: string) => call('GET', `${server.api('enterprise')}/wallet/actions/${action}?${query}`, { headers: auth });

/** A customer with points collected at `created_at`, valid until `valid_to`, and some redeemed. */
function customer(records: { kind: 'collection' | 'redemption'; points: number; created_at: string; valid_to?: string }[]): string {
  const node = server.app.node;
  const id = node.newId();
  node.writes.write(null, (tx) => {
    tx.insert('customers', { id, first_name: 'Wallet' });
    for (const record of records) {
      tx.insert('point_records', {
        id: node.newId(),
        customer_id: id,
        kind: record.kind,
        points_milli: record.points * 1000,
        created_at: record.created_at,
        valid_to: record.valid_to ?? null,
      });
    }
  });
  return id;
}

beforeAll(async () => {
  server = await startTestServer({ clock: new TestClock(Date.parse('2026-11-25T12:00:00Z')) });
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('the points overview', () => {
  it('sums what was earned and redeemed in the interval, days included, and answers the balance now whatever the interval', async () => {
    const id = customer([
      { kind: 'collection', points: 100, created_at: '2026-10-01T08:00:00.000Z' },
      { kind: 'collection', points: 40, created_at: '2026-11-10T23:30:00.000Z' },
      { kind: 'redemption', points: 25.5, created_at: '2026-11-20T10:00:00.000Z' },
    ]);
    expect((await wallet('points-overview', `customer_id=${id}`)).body.data).toEqual({
      earned_points: 140,
      redeemed_points: 25.5,
      available_points: 114.5,
    });
    expect((await wallet('points-overview', `customer_id=${id}&date_from=2026-11-10&date_to=2026-11-20`)).body.data).toEqual({
      earned_points: 40,
      redeemed_points: 25.5,
      available_points: 114.5,
    });
    expect((await wallet('points-overview', `customer_id=${id}&date_to=2026-11-09`)).body.data).toEqual({
      earned_points: 100,
      redeemed_points: 0,
      available_points: 114.5,
    });
  });

  it('refuses an interval that ends before it starts, and an unknown customer', async () => {
    const id = customer([]);
    expect(
      expectError(await wallet('points-overview', `customer_id=${id}&date_from=2026-11-10&date_to=2026-11-01`), 400, 'invalid_params_exception')
        .error_data.invalid_params[0],
    ).toMatchObject({
      name: 'date_to',
      reason: 'not_allowed_value',
    });
    expect(
      expectError(await wallet('credits-overview', `customer_id=${server.app.node.newId()}`), 400, 'invalid_params_exception').error_data
        .invalid_params[0],
    ).toMatchObject({
      name: 'customer_id',
      reason: 'not_found',
    });
  });
});

describe('the points expiration overview', () => {
  it('names the first day points expire with what is left of them, and what expires this month', async () => {
    // 30 expire on 28 November (10 of them redeemed: the fold spends the earliest expiry
    // first), 50 on 30 November, 70 in January; 5 expired already.
    const id = customer([
      { kind: 'collection', points: 5, created_at: '2026-01-01T00:00:00.000Z', valid_to: '2026-11-01T00:00:00.000Z' },
      { kind: 'collection', points: 30, created_at: '2026-02-01T00:00:00.000Z', valid_to: '2026-11-28T10:00:00.000Z' },
      { kind: 'collection', points: 50, created_at: '2026-03-01T00:00:00.000Z', valid_to: '2026-11-30T23:00:00.000Z' },
      { kind: 'collection', points: 70, created_at: '2026-04-01T00:00:00.000Z', valid_to: '2027-01-15T00:00:00.000Z' },
      { kind: 'redemption', points: 10, created_at: '2026-11-20T00:00:00.000Z' },
    ]);
    expect((await wallet('points-expiration-overview', `customer_id=${id}`)).body.data).toEqual({
      next_amount: 20,
      next_date: '2026-11-28',
      current_month_amount: 70,
    });
  });

  it('answers nothing due when no point expires', async () => {
    const id = customer([{ kind: 'collection', points: 12, created_at: '2026-01-01T00:00:00.000Z' }]);
    expect((await wallet('points-expiration-overview', `customer_id=${id}`)).body.data).toEqual({
      next_amount: 0,
      next_date: null,
      current_month_amount: 0,
    });
    expect((await wallet('credits-expiration-overview', `customer_id=${id}`)).body.data).toEqual({
      next_amount: 0,
      next_date: null,
      current_month_amount: 0,
    });
  });
});
