import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer, enterpriseGetter } from '../../support/server.js';
import { listChecks } from '../../support/list-checks.js';

const NOVEMBER = 'payment_time_from=2026-11-01 00:00:00';
let server: TestServer;
let auth: Record<string, string>;
const get = enterpriseGetter(
  () => server,
  () => auth,
);
const ids: Record<string, string> = {};

function bill(billId: string, time: string, items: [string, number, number][]) {
  const lines = items.map(([code, quantity, price], index) => ({
    plu_ids: [{ list_code: 'GLOBAL', code }],
    quantity,
    price,
    paid_amount: quantity * price,
    bill_item_id: index + 1,
    vat_rate: 12,
  }));
  return {
    bill_id: billId,
    bill_number: billId,
    payment_time: time,
    currency_id: 'CZK',
    total_price: String(lines.reduce((sum, line) => sum + line.paid_amount, 0)),
    bill_items: lines,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
  const send = async (name: string, body: Record<string, unknown>) => {
    const response = await call('POST', `${server.api('enterprise')}/purchases/actions/send-purchase`, {
      headers: auth,
      body: { cashdesk_number: 1, ...body },
    });
    expect(response.status).toBe(201);
    ids[name] = response.body.data.purchase_id;
  };
  // Jana at Central: 2 bags of beans (200 CZK), paying 20 points: earns 20 + 10 = 30.
  await send('jana', {
    store_id: DEMO_IDS.storeCentral,
    card_number: demoCredentials.customer_card,
    bill: { ...bill('P-1', '2026-11-10 10:00:00', [['859000769', 2, 100]]), payment_recap: { credit_points: 20 } },
  });
  // Petr at the airport: a cappuccino and a croissant.
  await send('petr', {
    store_id: DEMO_IDS.storeAirport,
    card_number: '2000000000024',
    bill: {
      ...bill('P-2', '2026-11-12 12:00:00', [
        ['859000771', 1, 65],
        ['859000772', 1, 35],
      ]),
      purchase_type_id: 'online',
    },
  });
  // Anonymous at Central.
  await send('anonymous', { store_id: DEMO_IDS.storeCentral, bill: bill('P-3', '2026-11-14 15:00:00', [['859000770', 1, 120]]) });
});
afterAll(() => server.close());

describe('purchases', () => {
  it('lists purchases with their items only when asked, counting every match', async () => {
    // The demo's history is from October; these purchases are from November.
    const plain = await get(`/purchases?sort_field=payment_time&${NOVEMBER}`);
    expect(plain.body.data.total_items).toBe(3);
    expect(plain.body.data.purchases[0]).toMatchObject({
      purchase_id: ids.jana,
      customer_id: DEMO_IDS.customerJana,
      external_purchase_id: 'P-1',
      payment_time: '2026-11-10 10:00:00',
      items_count: 1,
      purchase_items: null,
      total_price: 200,
      cashdesk_number: 1,
    });
    const extended = await get(`/purchases?purchase_items_extension=true&sort_field=payment_time&${NOVEMBER}`);
    expect(extended.body.data.purchases[1].purchase_items).toHaveLength(2);
    expect(extended.body.data.purchases[1].purchase_items[0]).toMatchObject({ external_id: '859000771', price: 65, amount: 1, vat_rate: 12 });
  });

  it('each filter narrows; sort works both ways; paging past the end answers []', async () => {
    const found = async (query: string) =>
      (await get(`/purchases?${query}&sort_field=payment_time&${NOVEMBER}`)).body.data.purchases.map(
        (purchase: { external_purchase_id: string }) => purchase.external_purchase_id,
      );
    expect(await found(`store_id=${DEMO_IDS.storeCentral}`)).toEqual(['P-1', 'P-3']);
    expect(await found(`customer_id=${DEMO_IDS.customerPetr}`)).toEqual(['P-2']);
    expect(await found('type_id=online')).toEqual(['P-2']);
    expect(
      (await get('/purchases?payment_time_from=2026-11-11 00:00:00&payment_time_to=2026-11-13 00:00:00')).body.data.purchases.map(
        (purchase: { external_purchase_id: string }) => purchase.external_purchase_id,
      ),
    ).toEqual(['P-2']);
    expect(await found('sort_direction=DESC')).toEqual(['P-3', 'P-2', 'P-1']);
    expect((await get(`/purchases?offset=10&${NOVEMBER}`)).body.data).toEqual({ purchases: [], total_items: 3 });
    expect(expectError(await get('/purchases?payment_time_from=last week'), 400, 'invalid_params_exception').error_data.invalid_params[0].name).toBe(
      'payment_time_from',
    );
  });

  it('a purchase later assigned to a customer is listed under that customer', async () => {
    await call('POST', `${server.api('enterprise')}/purchases/actions/assign-customer`, {
      headers: auth,
      body: { store_id: DEMO_IDS.storeCentral, external_purchase_id: 'P-3', customer_id: DEMO_IDS.customerEva },
    });
    expect((await get(`/purchases/${ids.anonymous}`)).body.data.customer_id).toBe(DEMO_IDS.customerEva);
    expect((await get(`/purchases?customer_id=${DEMO_IDS.customerEva}&${NOVEMBER}`)).body.data.total_items).toBe(1);
    const jana = (await get(`/purchases?customer_id=${DEMO_IDS.customerJana}&${NOVEMBER}`)).body.data;
    expect(jana.purchases.map((purchase: { purchase_id: string }) => purchase.purchase_id)).toEqual([ids.jana]);
  });

  it('answers detail, items, points and the payment summary of one purchase; an unknown id 404', async () => {
    expect((await get(`/purchases/${ids.jana}`)).body.data).toMatchObject({ purchase_id: ids.jana, purchase_items: null });
    expect((await get(`/purchases/${ids.petr}/purchase-items`)).body.data.total_items).toBe(2);
    const points = (await get(`/purchases/${ids.jana}/points`)).body.data;
    expect(points.points.map((point: { assigned_points: number }) => point.assigned_points).sort((a: number, b: number) => a - b)).toEqual([-20, 30]);
    expect((await get(`/purchases/${ids.jana}/actions/payment-summary`)).body.data).toEqual({
      earned_points: 30,
      used_credits: 0,
      used_points: 20,
      used_points_total: 20,
      used_vouchers: [],
    });
    expect((await get(`/purchases/${ids.jana}/vouchers`)).body.data).toEqual({ vouchers: [], total_items: 0 });
    expectError(await get('/purchases/ffffffffffffffffffffffffff'), 404, 'not_found_exception');
  });

  it('GET /points/{id}/purchases answers the purchase a point record came from', async () => {
    const earned = (await get(`/purchases/${ids.jana}/points`)).body.data.points.find(
      (point: { assigned_points: number }) => point.assigned_points > 0,
    );
    const response = await get(`/points/${earned.point_id}/purchases`);
    expect(response.body.data.purchases.map((purchase: { purchase_id: string }) => purchase.purchase_id)).toEqual([ids.jana]);
  });

  it('a logged-in customer sees only their own purchases', async () => {
    const token = await demoToken(server);
    await call('POST', `${server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: token.headers,
      body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
    });
    const own = await call('GET', `${server.api('customer')}/purchases?${NOVEMBER}`, { headers: token.headers });
    expect(own.body.data.purchases.map((purchase: { purchase_id: string }) => purchase.purchase_id)).toEqual([ids.jana]);
    const other = await call('GET', `${server.api('customer')}/purchases/${ids.petr}`, { headers: token.headers });
    expect(expectError(other, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('not_belong_to_logged_in_customer');
  });
});

listChecks(
  'GET /purchases (enterprise)',
  () => ({ url: `${server.api('enterprise')}/purchases`, headers: auth, plural: 'purchases', idField: 'purchase_id' }),
  [
    ['payment_time_from=yesterday', 'payment_time_from'],
    ['payment_time_to=2026-13-01 00:00:00', 'payment_time_to'],
    ['purchase_items_extension=perhaps', 'purchase_items_extension'],
  ],
);
