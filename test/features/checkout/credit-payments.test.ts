/**
 * Credits end to end on the demo chain, each worked example computed by hand in its
 * comments. The demo program (config/program.example.json): a point is worth 0.50 CZK;
 * 1 point per whole 10 CZK, bakery counts double, a bag of espresso beans 5 more; filter
 * coffee is 20 % off at the cash desk; and 2 % (`credit_back.percent_bp` 200) of what a
 * bill pays in money — after discounts, points and credit, without loyalty_off items —
 * comes back as credit, rounded down to 0.01 CZK. Each test makes its own customer with
 * the credit and points it needs, so that the tests read on their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { SyncState } from '../../../src/sync/sync-state.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { summedCredit } from '../../support/ledger-oracle.js';

const CENTRAL = DEMO_IDS.storeCentral;
const PRODUCT = { espresso: '859000769', filter: '859000770', cappuccino: '859000771' };

let server: TestServer;
let auth: Record<string, string>;
const post = (action: string, body: unknown, headers: Record<string, string> = {}) =>
  call('POST', `${server.api('enterprise')}/purchases/actions/${action}`, { headers: { ...auth, ...headers }, body });
const creditOf = (customerId: string) => summedCredit(server.app.node.db, customerId) / 100;
const count = (table: string) => (server.app.node.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const summary = async (purchaseId: string) =>
  (await call('GET', `${server.api('enterprise')}/purchases/${purchaseId}/actions/payment-summary`, { headers: auth })).body.data;

let customers = 0;
/** A new customer with a card, `credit` CZK of credit and `points` points. */
function customer(credit: number, points = 0): { id: string; card: string } {
  customers += 1;
  const node = server.app.node;
  const id = node.newId();
  const card = `30000000000${String(customers).padStart(2, '0')}`;
  node.writes.write(null, (tx) => {
    tx.insert('customers', { id, first_name: `Credit ${customers}` });
    tx.insert('cards', { id: node.newId(), customer_id: id, card_number: card, card_type_id: 'standard' });
    if (credit > 0)
      tx.insert('credit_records', {
        id: node.newId(),
        customer_id: id,
        kind: 'collection',
        amount_minor: credit * 100,
        created_at: '2026-01-01T00:00:00.000Z',
      });
    if (points > 0)
      tx.insert('point_records', {
        id: node.newId(),
        customer_id: id,
        kind: 'collection',
        points_milli: points * 1000,
        created_at: '2026-01-01T00:00:00.000Z',
      });
  });
  return { id, card };
}

let itemNumber = 0;
function item(code: string, quantity: number, price: number, extra: { loyalty_off?: boolean } = {}) {
  itemNumber += 1;
  return { plu_ids: [{ list_code: 'GLOBAL', code }], quantity, price, paid_amount: quantity * price, bill_item_id: itemNumber, ...extra };
}
function bill(billId: string, items: ReturnType<typeof item>[]) {
  const total = items.reduce((sum, line) => sum + line.paid_amount, 0);
  return {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: '2026-11-20T14:00:00+00:00',
    currency_id: 'CZK',
    total_price: String(total),
    bill_items: items,
  };
}
const accept = (body: Record<string, unknown>) => post('accept-payment', { store_id: CENTRAL, cashdesk_number: 1, payment_type: 'S', ...body });
const send = (card: string | undefined, finalBill: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post('send-purchase', { store_id: CENTRAL, cashdesk_number: 1, ...(card ? { card_number: card } : {}), bill: finalBill }, headers);

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('accept-payment', () => {
  it('credit pays up to max_credit; 2 % of what is left comes back; total_credit is the balance after the bill', async () => {
    // 200 CZK of credit, a 300 CZK bill of beans, max_credit 50: credit 50, 250 paid in money,
    // 2 % of it = 5.00 back. total_credit: 200 − 50 + 5 = 155.
    const { card } = customer(200);
    const response = await accept({ card_number: card, max_credit: '50', bill: bill('A-1', [item(PRODUCT.espresso, 3, 100)]) });
    expect(response.status).toBe(200);
    expect(response.body.data.accepted_payment).toMatchObject({ credit_points: 0, credit: 50, total_credit: 155 });
  });

  it('credit is limited by the balance', async () => {
    // 40 CZK of credit, max_credit 100 on a 300 CZK bill: credit 40, 260 paid, 5.20 back.
    // total_credit: 40 − 40 + 5.20 = 5.20.
    const { card } = customer(40);
    const response = await accept({ card_number: card, max_credit: 100, bill: bill('A-2', [item(PRODUCT.espresso, 3, 100)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit: 40, total_credit: 5.2 });
  });

  it('credit pays only what the points left, and nothing paid in money earns no credit back', async () => {
    // A 100 CZK bag of beans; 150 points at 0.50 pay 75, leaving 25. max_credit 100 of 200:
    // credit 25, nothing paid in money, nothing back. total_credit: 200 − 25 = 175.
    const { card } = customer(200, 150);
    const response = await accept({ card_number: card, max_points: 150, max_credit: 100, bill: bill('A-3', [item(PRODUCT.espresso, 1, 100)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit_points: 150, price_of_credit_points: 75, credit: 25, total_credit: 175 });
  });

  it('credit back is counted after the discounts and without loyalty_off items; D earns none', async () => {
    // 2 × filter coffee at 120 = 240, 20 % off at the cash desk: 48.00 off. A bag of beans for
    // 100, loyalty_off. Total 340 − 48 = 292 paid, of which 292 − 100 = 192 earns: 3.84 back.
    // S: 200 + 3.84 = 203.84. D: the same discount, credit 20 used, nothing back: 180.
    const { card } = customer(200);
    const items = [item(PRODUCT.filter, 2, 120), item(PRODUCT.espresso, 1, 100, { loyalty_off: true })];
    const s = await accept({ card_number: card, bill: bill('A-4', items) });
    expect(s.body.data.accepted_payment.recommended_discounts.map((discount: { discount: number }) => discount.discount)).toEqual([48]);
    expect(s.body.data.accepted_payment).toMatchObject({ credit: 0, total_credit: 203.84 });
    const d = await accept({ card_number: card, payment_type: 'D', max_credit: 20, bill: bill('A-4', items) });
    expect(d.body.data.accepted_payment).toMatchObject({ credit: 20, total_credit: 180 });
  });

  it('credit back is rounded down to 0.01', async () => {
    // A 65 CZK cappuccino, 0.15 paid with credit: 64.85 paid, 2 % = 1.297, so 1.29 back.
    // total_credit: 200 − 0.15 + 1.29 = 201.14.
    const { card } = customer(200);
    const response = await accept({ card_number: card, max_credit: '0.15', bill: bill('A-5', [item(PRODUCT.cappuccino, 1, 65)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit: 0.15, total_credit: 201.14 });
  });

  it('without a card no credit is used or counted: asking to pay with credit answers 400 required (issue 18: not dropped)', async () => {
    const asked = await accept({ max_credit: 50, bill: bill('A-6', [item(PRODUCT.espresso, 3, 100)]) });
    expect(expectError(asked, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'card_number',
      reason: 'required',
    });
    const response = await accept({ bill: bill('A-6', [item(PRODUCT.espresso, 3, 100)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit: 0, total_credit: 0 });
  });
});

describe('send-purchase', () => {
  it('ends where accept-payment said: the credit paid with is redeemed, the credit back collected, and payment-summary reports the credit used', async () => {
    // As in accept-payment: 200 − 50 + 5.00 = 155.
    const { id, card } = customer(200);
    const paid = bill('S-1', [item(PRODUCT.espresso, 3, 100)]);
    const accepted = await accept({ card_number: card, max_credit: 50, bill: paid });
    const sent = await send(card, {
      ...paid,
      payment_type: 'S',
      payment_recap: { credit_points: 0, amount_for_credit: accepted.body.data.accepted_payment.credit },
    });
    expect(sent.status).toBe(201);
    expect(creditOf(id)).toBe(155);
    expect(creditOf(id)).toBe(accepted.body.data.accepted_payment.total_credit);
    const records = server.app.node.db
      .prepare('SELECT kind, amount_minor FROM credit_records WHERE purchase_id = ? ORDER BY kind')
      .all(sent.body.data.purchase_id);
    expect(records).toEqual([
      { kind: 'collection', amount_minor: 500 },
      { kind: 'redemption', amount_minor: 5000 },
    ]);
    expect(await summary(sent.body.data.purchase_id)).toMatchObject({ used_credits: 50 });
  });

  it('a bill of payment type D earns no credit back', async () => {
    const { id, card } = customer(10);
    expect((await send(card, { ...bill('S-2', [item(PRODUCT.espresso, 1, 100)]), payment_type: 'D' })).status).toBe(201);
    expect(creditOf(id)).toBe(10);
  });

  it('paying with more credit than the balance answers not_allowed_value and writes nothing', async () => {
    const { id, card } = customer(40);
    const tables = ['purchases', 'purchase_items', 'point_records', 'credit_records', 'outbox'];
    const before = tables.map(count);
    const over = await send(card, { ...bill('S-3', [item(PRODUCT.espresso, 3, 100)]), payment_recap: { amount_for_credit: '40.01' } });
    expect(expectError(over, 400, 'invalid_params_exception').error_data.invalid_params[0]).toEqual({
      name: 'bill.payment_recap.amount_for_credit',
      reason: 'not_allowed_value',
      value: '40.01',
      message: 'The customer has 40 in credit',
    });
    const negative = await send(card, { ...bill('S-3', [item(PRODUCT.espresso, 3, 100)]), payment_recap: { amount_for_credit: -5 } });
    expect(expectError(negative, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'bill.payment_recap.amount_for_credit',
      reason: 'not_allowed_value',
    });
    const anonymous = await send(undefined, { ...bill('S-3', [item(PRODUCT.espresso, 3, 100)]), payment_recap: { amount_for_credit: 5 } });
    expect(expectError(anonymous, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'card_number',
      reason: 'required',
    });
    expect(tables.map(count)).toEqual(before);
    expect(creditOf(id)).toBe(40);
  });

  it('the same bill sent again answers already_exists, and a replayed Idempotency-Key the first answer; nothing is written twice', async () => {
    // 100 CZK of credit; a 300 CZK bill paying 30 of it: 270 paid, 5.40 back: 75.40.
    const { id, card } = customer(100);
    const once = { ...bill('S-4', [item(PRODUCT.espresso, 3, 100)]), payment_recap: { amount_for_credit: 30 } };
    const first = await send(card, once, { 'Idempotency-Key': 'credits-S-4' });
    expect(first.status).toBe(201);
    expect(creditOf(id)).toBe(75.4);
    const records = count('credit_records');
    const replayed = await send(card, once, { 'Idempotency-Key': 'credits-S-4' });
    expect(replayed.status).toBe(201);
    expect(replayed.body.data.purchase_id).toBe(first.body.data.purchase_id);
    const again = await send(card, once);
    const error = expectError(again, 400, 'invalid_params_exception');
    expect(error.error_data.invalid_params[0]).toMatchObject({ name: 'bill.bill_id', reason: 'already_exists' });
    expect(error.error_data.purchase_id).toBe(first.body.data.purchase_id);
    expect(count('credit_records')).toBe(records);
    expect(creditOf(id)).toBe(75.4);
  });

  it('a cancellation gives back the credit spent and takes back the credit earned, each linked to what it reverses', async () => {
    // 200 CZK of credit; 300 CZK of beans paying 50: 200 − 50 + 5 = 155. Cancelled: + 50, − 5: 200.
    const { id, card } = customer(200);
    const original = bill('S-5', [item(PRODUCT.espresso, 3, 100)]);
    const sent = await send(card, { ...original, payment_recap: { amount_for_credit: 50 } });
    expect(creditOf(id)).toBe(155);
    const cancel = await send(card, { ...original, bill_id: 'S-5-CANCEL', canceled: true });
    expect(cancel.status).toBe(201);
    expect(creditOf(id)).toBe(200);
    const links = server.app.node.db
      .prepare(
        `SELECT r.kind, r.amount_minor, o.kind AS reverses FROM credit_records r JOIN credit_records o ON o.id = r.linked_credit_id
         WHERE r.purchase_id = ? AND o.purchase_id = ? ORDER BY r.kind`,
      )
      .all(cancel.body.data.purchase_id, sent.body.data.purchase_id);
    expect(links).toEqual([
      { kind: 'collection', amount_minor: 5000, reverses: 'redemption' },
      { kind: 'redemption', amount_minor: 500, reverses: 'collection' },
    ]);
    expect(await summary(cancel.body.data.purchase_id)).toMatchObject({ used_credits: 0 });
  });

  it('a cancellation that repeats the original payment_recap spends nothing again: the points and credit paid come back once', async () => {
    // 100 points and 200 CZK of credit; 300 CZK of beans paying 40 points and 50 of credit.
    // The till sends the bill again as it was, recap included, with canceled: true.
    const { id, card } = customer(200, 100);
    const pointsOf = () => server.app.node.balances.balancesAt(id, Date.now()).pointsMilli / 1000;
    const original = { ...bill('S-9', [item(PRODUCT.espresso, 3, 100)]), payment_recap: { credit_points: 40, amount_for_credit: 50 } };
    expect((await send(card, original)).status).toBe(201);
    expect(creditOf(id)).toBeLessThan(200);
    expect(pointsOf()).toBeLessThan(100 + 45);
    const cancel = await send(card, { ...original, bill_id: 'S-9-CANCEL', canceled: true });
    expect(cancel.status).toBe(201);
    expect(creditOf(id)).toBe(200);
    expect(pointsOf()).toBe(100);
    expect(await summary(cancel.body.data.purchase_id)).toMatchObject({ used_credits: 0 });
  });

  it('a return takes back the credit back of the returned items; credit already spent leaves a negative balance, listed', async () => {
    // No credit to start. 10 bags of beans, 1000 CZK: 20.00 back. A bag for 100 paying all 20:
    // 80 paid, 1.60 back: 1.60. Returning 2 bags of the first bill, 200 CZK, takes back 4.00:
    // 1.60 − 4.00 = −2.40, kept and listed.
    const { id, card } = customer(0);
    await send(card, bill('S-6', [item(PRODUCT.espresso, 10, 100)]));
    expect(creditOf(id)).toBe(20);
    await send(card, { ...bill('S-7', [item(PRODUCT.espresso, 1, 100)]), payment_recap: { amount_for_credit: 20 } });
    expect(creditOf(id)).toBe(1.6);
    const returned = await send(card, bill('S-6-RETURN', [item(PRODUCT.espresso, -2, 100)]));
    expect(returned.status).toBe(201);
    expect(creditOf(id)).toBe(-2.4);
    const listed = server.app.node.db.prepare("SELECT detail FROM sync_conflicts WHERE kind = 'credit_overspent' AND entity_id = ?").get(id) as {
      detail: string;
    };
    expect(JSON.parse(listed.detail)).toEqual({ balance_credit: -2.4 });
  });

  it('assign-customer gives an anonymous purchase its credit back then, once', async () => {
    // An anonymous 200 CZK bill of beans: 4.00 back when assigned.
    const { id, card } = customer(0);
    expect((await send(undefined, bill('S-8', [item(PRODUCT.espresso, 2, 100)]))).status).toBe(201);
    expect(creditOf(id)).toBe(0);
    for (let i = 0; i < 2; i += 1) {
      expect((await post('assign-customer', { store_id: CENTRAL, external_purchase_id: 'S-8', card_number: card })).status).toBe(204);
    }
    expect(creditOf(id)).toBe(4);
  });
});

describe('a store with a hub', () => {
  let store: TestServer;
  let storeAuth: Record<string, string>;
  beforeAll(async () => {
    store = await startTestServer({ config: { 'hub.url': 'http://127.0.0.1:9', 'offline.max_age_hours': 24 } });
    storeAuth = await demoPosLogin(store);
  });
  afterAll(() => store.close());

  it('spends no credit once its last sync is older than offline.max_age_hours, while credit back goes on', async () => {
    // Jana's 200 CZK of credit. Last sync 25 h ago: paying 10 with credit is refused; the bill
    // without it earns 2 % of 100 = 2.00 back.
    new SyncState(store.app.node.db).set('last_success_at', new Date(store.clock.now() - 25 * 3_600_000).toISOString());
    const sendHere = (billId: string, recap: Record<string, unknown>) =>
      call('POST', `${store.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: storeAuth,
        body: {
          store_id: CENTRAL,
          cashdesk_number: 1,
          card_number: demoCredentials.customer_card,
          bill: { ...bill(billId, [item(PRODUCT.espresso, 1, 100)]), payment_recap: recap },
        },
      });
    const stale = await sendHere('H-1', { amount_for_credit: 10 });
    expect(expectError(stale, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'bill.payment_recap.amount_for_credit',
      reason: 'offline_redemption_limit',
    });
    expect((await sendHere('H-2', {})).status).toBe(201);
    expect(summedCredit(store.app.node.db, DEMO_IDS.customerJana)).toBe(20_200);
  });
});
