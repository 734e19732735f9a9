/**
 * Acceptance 1 of issue 18: on a chain loaded only with `loyaltyd import` and `program
 * load` (no demo), a reward turns into a voucher with points, the till applies it, the
 * closed bill uses it once, the purchase shows it, and the bill's cancellation gives it back
 * with the points. At each step the balance points-overview answers is the sum of what
 * GET /points says each record has left.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliJson } from '../support/cli.js';
import { expectError } from '../support/expect-error.js';
import { bearer, call, startTestServer, tempDir, type TestServer } from '../support/server.js';

const STORE = 'ae0000000000000000000000b1';
const CUSTOMER = 'ae0000000000000000000000b2';
const GROUP = 'ae0000000000000000000000b3';
const PRODUCT = 'ae0000000000000000000000b4';
const REWARD = 'ae0000000000000000000000b5';
const CARD = '3000000000022';

let dataDir: string;
let server: TestServer;
let pos: Record<string, string>;
const api = (path: string) => `${server.api('enterprise')}${path}`;

async function load(resource: string, file: string, lines: string[]): Promise<void> {
  const path = join(dataDir, file);
  writeFileSync(path, lines.join('\n'));
  expect(await runCliJson(['import', resource, path, '--data-dir', dataDir])).toMatchObject({ imported: lines.length - 1, rejected: 0 });
}

/** A bill of `count` green teas at 3.00 each. */
function bill(billId: string, count: number, extra: Record<string, unknown> = {}) {
  const item = {
    plu_ids: [{ list_code: 'GLOBAL', code: '8591111' }],
    quantity: count,
    price: '3.00',
    paid_amount: (3 * count).toFixed(2),
    bill_item_id: 1,
  };
  return {
    bill_id: billId,
    bill_number: billId,
    payment_time: '2026-11-20T10:00:00+01:00',
    currency_id: 'EUR',
    total_price: (3 * count).toFixed(2),
    bill_items: [item],
    ...extra,
  };
}

const sendPurchase = (finalBill: Record<string, unknown>) =>
  call('POST', api('/purchases/actions/send-purchase'), {
    headers: pos,
    body: { store_id: STORE, cashdesk_number: 1, card_number: CARD, bill: finalBill },
  });

/** The balance points-overview answers, after checking it equals the sum over GET /points. */
async function balance(): Promise<number> {
  const overview = await call('GET', api(`/wallet/actions/points-overview?customer_id=${CUSTOMER}`), { headers: pos });
  expect(overview.status, JSON.stringify(overview.body)).toBe(200);
  const points = await call('GET', api(`/points?customer_id=${CUSTOMER}&count=1000`), { headers: pos });
  const summed = points.body.data.points.reduce((total: number, point: { available_points: number }) => total + point.available_points, 0);
  expect(overview.body.data.available_points).toBeCloseTo(summed, 3);
  return overview.body.data.available_points;
}

beforeAll(async () => {
  dataDir = tempDir();
  const app = await runCliJson(['apps', 'add', '--name', 'Till app', '--data-dir', dataDir]);
  await runCliJson(['users', 'add', '--login', 'till', '--password', 'till-password', '--app', app.external_application_id, '--data-dir', dataDir]);
  await load('stores', 'stores.csv', ['store_id,store.store_code,store.name,store.partner_id,store.system_id', `${STORE},S-1,High Street,P-1,1`]);
  await load('customers', 'customers.csv', [
    'customer_id,customer.personal_information.first_name,customer.personal_information.email',
    `${CUSTOMER},Ida,ida@example.com`,
  ]);
  await load('cards', 'cards.csv', ['card.customer_id,card.card_number,card.card_type_id', `${CUSTOMER},${CARD},plastic`]);
  await load('product-groups', 'groups.csv', ['product_group_id,name', `${GROUP},Tea`]);
  await load('products', 'products.csv', ['product_id,name,product_group_id,external_ids.GLOBAL', `${PRODUCT},Green tea,${GROUP},8591111`]);
  const program = join(dataDir, 'program.json');
  writeFileSync(
    program,
    JSON.stringify({
      currency_id: 'EUR',
      point_value: '0.10',
      earning: [{ kind: 'per_currency_unit', per_amount: '1', points: '1' }],
      // 5 points buy a voucher for 1.00 off a tea.
      rewards: [
        {
          id: REWARD,
          code: 'TEA-OFF',
          name: 'A euro off tea',
          priority: 1,
          points_cost: '5',
          conditions: [{ product_group_ids: [GROUP] }],
          discount: { type: 'amount', value: '1.00' },
        },
      ],
    }),
  );
  await runCliJson(['program', 'load', program, '--data-dir', dataDir]);
  server = await startTestServer({ dataDir, demo: false });
  const login = await call('POST', api('/users/actions/login'), {
    body: { user_external_application_id: app.external_application_id, login: 'till', password: 'till-password' },
  });
  expect(login.status).toBe(200);
  pos = bearer(login.body.data.bearer_token as string);
});
afterAll(() => server.close());

describe('the loyalty loop on an imported chain', () => {
  it('turns points into a voucher, applies it once on a bill, and gives it and the points back when the bill is cancelled', async () => {
    // Ten teas earn 30 points. Times are read in UTC, the configured zone.
    expect((await sendPurchase(bill('B-1', 10))).status).toBe(201);
    expect(await balance()).toBe(30);

    const created = await call('POST', api(`/rewards/${REWARD}/actions/create-voucher`), { headers: pos, body: { customer_id: CUSTOMER } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const voucherId = created.body.data.voucher_id as string;
    expect(await balance()).toBe(25);
    const listed = await call('GET', api(`/vouchers?customer_id=${CUSTOMER}`), { headers: pos });
    expect(listed.body.data.vouchers).toEqual([
      expect.objectContaining({ voucher_id: voucherId, customer_id: CUSTOMER, value: 1, applied_date: null }),
    ]);
    const code = listed.body.data.vouchers[0].code as string;

    // Two teas (6.00) with the voucher: 1.00 off; 2 points pay 0.20 more.
    const accepted = await call('POST', api('/purchases/actions/accept-payment'), {
      headers: pos,
      body: { store_id: STORE, cashdesk_number: 1, card_number: CARD, payment_type: 'S', max_points: 2, benefit_codes: [code], bill: bill('B-2', 2) },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data.accepted_payment).toMatchObject({
      benefit_codes: [code],
      credit_points: 2,
      recommended_discounts: [expect.objectContaining({ code, type: 'voucher', discount: 1 })],
    });

    // The closed bill: 6.00 less 1.00 off, 2 points paid; 4.80 paid in money earns 4 points.
    const sent = await sendPurchase(
      bill('B-2', 2, { total_price: '5.00', payment_recap: { credit_points: 2, vouchers: [{ code, name: 'A euro off tea', discount_value: 1 }] } }),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const purchaseId = sent.body.data.purchase_id as string;
    const afterBill = await balance();
    expect(afterBill).toBe(25 - 2 + (await earnedBy(purchaseId)));

    const again = await sendPurchase(bill('B-3', 2, { payment_recap: { vouchers: [{ code }] } }));
    expect(expectError(again, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'bill.payment_recap.vouchers.0.code', reason: 'voucher_already_used', value: code }),
    ]);
    expect(await balance()).toBe(afterBill);

    const voucher = await call('GET', api(`/vouchers/${voucherId}`), { headers: pos });
    expect(voucher.body.data).toMatchObject({ store_id: STORE, applied_date: '2026-11-20 09:00:00' });
    const summary = await call('GET', api(`/purchases/${purchaseId}/actions/payment-summary`), { headers: pos });
    expect(summary.body.data).toMatchObject({
      used_points: 2,
      used_points_total: 7,
      used_vouchers: [expect.objectContaining({ voucher_id: voucherId, code })],
    });
    const ofPurchase = await call('GET', api(`/purchases/${purchaseId}/vouchers`), { headers: pos });
    expect(ofPurchase.body.data).toMatchObject({ total_items: 1, vouchers: [expect.objectContaining({ voucher_id: voucherId })] });

    // The cancellation takes back what the bill earned, gives back the 2 points it paid and the voucher.
    // It repeats the voucher it names, which uses no voucher again.
    const cancelled = await sendPurchase(
      bill('C-B-2', 2, { bill_number: 'B-2', canceled: true, total_price: '5.00', payment_recap: { vouchers: [{ code }] } }),
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);
    expect(await balance()).toBe(25);
    const restored = await call('GET', api(`/vouchers?customer_id=${CUSTOMER}&is_applied=false`), { headers: pos });
    expect(restored.body.data.vouchers).toEqual([expect.objectContaining({ voucher_id: voucherId, applied_date: null, store_id: null })]);
    const usable = await call('POST', api('/purchases/actions/accept-payment'), {
      headers: pos,
      body: { store_id: STORE, cashdesk_number: 1, card_number: CARD, payment_type: 'S', benefit_codes: [code], bill: bill('B-4', 1) },
    });
    expect(usable.body.data.accepted_payment.benefit_codes).toEqual([code]);
  });

  it('refuses a voucher the balance cannot pay for, and one from a reward nobody loaded', async () => {
    for (let left = await balance(); left >= 5; left -= 5) {
      expect((await call('POST', api(`/rewards/${REWARD}/actions/create-voucher`), { headers: pos, body: { customer_id: CUSTOMER } })).status).toBe(
        201,
      );
      expect(await balance()).toBe(left - 5);
    }
    const broke = await call('POST', api(`/rewards/${REWARD}/actions/create-voucher`), { headers: pos, body: { customer_id: CUSTOMER } });
    expect(expectError(broke, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'reward_id', reason: 'not_enough_points_for_payment' }),
    ]);
    const unknown = await call('POST', api(`/rewards/${PRODUCT}/actions/create-voucher`), { headers: pos, body: { customer_id: CUSTOMER } });
    expectError(unknown, 404, 'not_found_exception');
  });
});

/** The points a purchase earned, from its own records. */
async function earnedBy(purchaseId: string): Promise<number> {
  const summary = await call('GET', api(`/purchases/${purchaseId}/actions/payment-summary`), { headers: pos });
  return summary.body.data.earned_points as number;
}
