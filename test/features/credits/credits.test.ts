/**
 * The credit resource of today's spec and the credits overview (issue 18, acceptance 4) on
 * the demo chain: deposit, reduce (never below zero, and offline limits as for any credit
 * spend) and transfer are facts of the one ledger, so after each call the overview's
 * balance, accept-payment's total_credit and the credit GET /credits says is left agree.
 * The bill asked about holds one loyalty_off item, which earns no credit back, so its
 * total_credit is the balance itself. At a store with a hub, spending credit, and points on a
 * voucher, stops as every redemption does when the store has not synced for too long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { SyncState } from '../../../src/sync/sync-state.js';
import { expectError } from '../../support/expect-error.js';
import { janaSession } from '../../support/customers-fixtures.js';
import { listChecks } from '../../support/list-checks.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { CAPPUCCINO_REWARD } from '../../support/vouchers-fixtures.js';

let server: TestServer;
let auth: Record<string, string>;

let customers = 0;
/** A new customer with a card and no credit. */
function customer(on: TestServer): { id: string; card: string } {
  customers += 1;
  const node = on.app.node;
  const id = node.newId();
  const card = `31000000000${String(customers).padStart(2, '0')}`;
  node.writes.write(null, (tx) => {
    tx.insert('customers', { id, first_name: `Wallet ${customers}` });
    tx.insert('cards', { id: node.newId(), customer_id: id, card_number: card, card_type_id: 'standard' });
  });
  return { id, card };
}

const action = (on: TestServer, headers: Record<string, string>, name: string, body: unknown) =>
  call('POST', `${on.api('enterprise')}/credits/actions/${name}`, { headers, body });

/** The balance, after checking that the overview, accept-payment and GET /credits agree on it. */
async function creditOf(holder: { id: string; card: string }): Promise<number> {
  const enterprise = server.api('enterprise');
  const overview = await call('GET', `${enterprise}/wallet/actions/credits-overview?customer_id=${holder.id}`, { headers: auth });
  expect(overview.status, JSON.stringify(overview.body)).toBe(200);
  const item = {
    plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }],
    quantity: 1,
    price: 100,
    paid_amount: 100,
    bill_item_id: 1,
    loyalty_off: true,
  };
  const accepted = await call('POST', `${enterprise}/purchases/actions/accept-payment`, {
    headers: auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      payment_type: 'S',
      card_number: holder.card,
      bill: { bill_id: 'Q', payment_time: '2026-11-20T14:00:00+00:00', total_price: 100, bill_items: [item] },
    },
  });
  expect(accepted.body.data.accepted_payment.total_credit).toBe(overview.body.data.available_credits);
  const credits = await call('GET', `${enterprise}/credits?customer_id=${holder.id}`, { headers: auth });
  const left = credits.body.data.credits.reduce((total: number, credit: { available_credits: number }) => total + credit.available_credits, 0);
  expect(left).toBeCloseTo(Math.max(0, overview.body.data.available_credits), 2);
  return overview.body.data.available_credits;
}

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('credits', () => {
  it('deposit, reduce and transfer move the balance that checkout and the overview read', async () => {
    const ida = customer(server);
    const ola = customer(server);
    const deposit = await action(server, auth, 'deposit-credits', { amount: '120.50', customer_id: ida.id, partner_id: 'P-1', note: 'Birthday' });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(201);
    expect(await creditOf(ida)).toBe(120.5);
    const one = await call('GET', `${server.api('enterprise')}/credits/${deposit.body.data.credit_id}`, { headers: auth });
    expect(one.body.data).toMatchObject({
      customer_id: ida.id,
      assigned_credits: 120.5,
      available_credits: 120.5,
      credit_type_id: 'manual',
      partner_id: 'P-1',
      note: 'Birthday',
    });

    const reduce = await action(server, auth, 'reduce-credits', { amount: 20, customer_id: ida.id, partner_id: 'P-1' });
    expect(reduce.status).toBe(201);
    expect(await creditOf(ida)).toBe(100.5);

    expect(
      (
        await action(server, auth, 'transfer-credits', {
          original_customer_id: ida.id,
          new_customer_id: ola.id,
          amount: '0.50',
          credit_type_id: 'merge',
        })
      ).status,
    ).toBe(204);
    expect(await creditOf(ida)).toBe(100);
    expect(await creditOf(ola)).toBe(0.5);
    const overview = await call('GET', `${server.api('enterprise')}/wallet/actions/credits-overview?customer_id=${ida.id}`, { headers: auth });
    expect(overview.body.data).toEqual({ earned_credits: 120.5, redeemed_credits: 20.5, available_credits: 100 });
  });

  it('reduce and transfer never take the balance below zero', async () => {
    const ida = customer(server);
    const ola = customer(server);
    await action(server, auth, 'deposit-credits', { amount: 10, customer_id: ida.id });
    const reduce = await action(server, auth, 'reduce-credits', { amount: '10.01', customer_id: ida.id });
    expect(expectError(reduce, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'amount', reason: 'not_allowed_value' }),
    ]);
    const transfer = await action(server, auth, 'transfer-credits', { original_customer_id: ida.id, new_customer_id: ola.id, amount: 11 });
    expectError(transfer, 400, 'invalid_params_exception');
    expect(await creditOf(ida)).toBe(10);
    expect(await creditOf(ola)).toBe(0);
  });

  it('refuses an unknown customer, a zero amount, a transfer to the same customer and another currency', async () => {
    const ida = customer(server);
    const refused = async (name: string, body: unknown) =>
      expectError(await action(server, auth, name, body), 400, 'invalid_params_exception').error_data.invalid_params[0];
    expect(await refused('deposit-credits', { amount: 5, customer_id: DEMO_IDS.storeCentral })).toMatchObject({
      name: 'customer_id',
      reason: 'not_found',
    });
    expect(await refused('deposit-credits', { amount: 0, customer_id: ida.id })).toMatchObject({ name: 'amount' });
    expect(await refused('transfer-credits', { original_customer_id: ida.id, new_customer_id: ida.id, amount: 1 })).toMatchObject({
      name: 'new_customer_id',
      reason: 'not_allowed_value',
    });
    expect(await refused('deposit-credits', { amount: 5, customer_id: ida.id, currency_id: 'USD' })).toMatchObject({
      name: 'currency_id',
      reason: 'not_allowed_value',
    });
    expect(await creditOf(ida)).toBe(0);
  });

  it('lists credit records by customer, type and note, a redemption negative', async () => {
    const ida = customer(server);
    await action(server, auth, 'deposit-credits', { amount: 30, customer_id: ida.id, note: 'Black Friday' });
    await action(server, auth, 'reduce-credits', { amount: 5, customer_id: ida.id, credit_type_id: 'expiry' });
    const list = async (query: string) =>
      (await call('GET', `${server.api('enterprise')}/credits?customer_id=${ida.id}&${query}`, { headers: auth })).body.data;
    expect(
      (await list('')).credits.map((credit: { assigned_credits: number }) => credit.assigned_credits).sort((x: number, y: number) => x - y),
    ).toEqual([-5, 30]);
    expect((await list('note=friday')).credits).toEqual([expect.objectContaining({ assigned_credits: 30, available_credits: 25 })]);
    expect((await list('credit_type_id=expiry')).total_items).toBe(1);
    expectError(await call('GET', `${server.api('enterprise')}/credits/${ida.id}`, { headers: auth }), 404, 'not_found_exception');
  });
});

describe('credits in the customer interface', () => {
  it('a logged-in customer reads only their own credit records and overviews', async () => {
    const session = (await janaSession(server)).headers;
    const customer = server.api('customer');
    const own = await call('GET', `${customer}/credits`, { headers: session });
    expect(own.status).toBe(200);
    expect(new Set(own.body.data.credits.map((credit: { customer_id: string }) => credit.customer_id))).toEqual(new Set([DEMO_IDS.customerJana]));
    const other = await call('GET', `${customer}/credits?customer_id=${DEMO_IDS.customerPetr}`, { headers: session });
    expect(expectError(other, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
    const overview = await call('GET', `${customer}/wallet/actions/credits-overview?customer_id=${DEMO_IDS.customerPetr}`, { headers: session });
    expect(expectError(overview, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
    const deposit = await call('POST', `${customer}/credits/actions/deposit-credits`, {
      headers: session,
      body: { customer_id: DEMO_IDS.customerJana, amount: 5 },
    });
    expect(deposit.status).toBe(403);
  });

  listChecks(
    'GET /credits (enterprise)',
    () => ({ url: `${server.api('enterprise')}/credits`, headers: auth, plural: 'credits', idField: 'credit_id' }),
    [
      ['create_credit_time_from=yesterday', 'create_credit_time_from'],
      ['create_credit_time_to=2026-13-01 00:00:00', 'create_credit_time_to'],
    ],
  );
});

describe('spending credit and points at a store with a hub', () => {
  let store: TestServer;
  let storeAuth: Record<string, string>;
  beforeAll(async () => {
    store = await startTestServer({ config: { 'hub.url': 'http://127.0.0.1:9', 'offline.max_age_hours': 24 } });
    storeAuth = await demoPosLogin(store);
  });
  afterAll(() => store.close());

  it('reduces no credit before its first sync or once its last sync is too old, while deposits go on', async () => {
    const ida = customer(store);
    expect((await action(store, storeAuth, 'deposit-credits', { amount: 50, customer_id: ida.id })).status).toBe(201);
    const unsynced = await action(store, storeAuth, 'reduce-credits', { amount: 1, customer_id: ida.id });
    expect(expectError(unsynced, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'amount',
      reason: 'offline_redemption_limit',
    });
    new SyncState(store.app.node.db).set('last_success_at', new Date(store.clock.now()).toISOString());
    expect((await action(store, storeAuth, 'reduce-credits', { amount: 1, customer_id: ida.id })).status).toBe(201);
    new SyncState(store.app.node.db).set('last_success_at', new Date(store.clock.now() - 25 * 3_600_000).toISOString());
    const stale = await action(store, storeAuth, 'transfer-credits', {
      original_customer_id: ida.id,
      new_customer_id: customer(store).id,
      amount: 1,
    });
    expect(expectError(stale, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ reason: 'offline_redemption_limit' });
  });

  it('makes no voucher from a reward once its last sync is too old: the points it costs are a redemption like any other', async () => {
    new SyncState(store.app.node.db).set('last_success_at', new Date(store.clock.now() - 25 * 3_600_000).toISOString());
    const voucher = await call('POST', `${store.api('enterprise')}/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, {
      headers: storeAuth,
      body: { customer_id: DEMO_IDS.customerJana },
    });
    expect(expectError(voucher, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'reward_id',
      reason: 'offline_redemption_limit',
    });
    new SyncState(store.app.node.db).set('last_success_at', new Date(store.clock.now()).toISOString());
    expect(
      (
        await call('POST', `${store.api('enterprise')}/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, {
          headers: storeAuth,
          body: { customer_id: DEMO_IDS.customerJana },
        })
      ).status,
    ).toBe(201);
  });
});
