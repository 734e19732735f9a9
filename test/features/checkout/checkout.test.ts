/**
 * Worked examples of the checkout engine on the demo chain, each computed by hand in its
 * comments. The demo program (config/program.example.json): a point is worth 0.50 CZK;
 * 1 point per whole 10 CZK, bakery items count double, espresso beans earn 5 more points
 * a bag. Rewards: FREE-CAPPUCCINO (manual, 100 points, a cappuccino for 0, twice a bill),
 * BAKERY-10 (automated, 10 % off bakery), MORNING-PASTRY (manual, a bakery item for 20 CZK
 * from 06:00 to 10:00), AIRPORT-50 (manual, 50 points, 50 CZK off, airport only),
 * AIRPORT-5PCT (automated, 5 % off the bill, airport only). 2 % of what a bill pays in money
 * comes back as credit. Jana holds 250 points and 200 CZK of credit, Petr 80 points, Eva none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { foldedPoints } from '../../support/ledger-oracle.js';
import { OpenApiContract } from '../../support/openapi.js';

const JANA_CARD = '2000000000017';
const PETR_CARD = '2000000000024';
const EVA_CARD = '2000000000031';
const CENTRAL = DEMO_IDS.storeCentral;
const AIRPORT = DEMO_IDS.storeAirport;
const PRODUCT = { espresso: '859000769', filter: '859000770', cappuccino: '859000771', croissant: '859000772' };

let itemNumber = 0;
function item(code: string, quantity: number, price: number, paid = quantity * price) {
  itemNumber += 1;
  return { plu_ids: [{ list_code: 'GLOBAL', code }], plu_name: code, quantity, price, paid_amount: paid, bill_item_id: itemNumber, vat_rate: 21 };
}
function bill(items: ReturnType<typeof item>[], time = '2026-11-20T14:00:00+00:00', billId = `bill-${itemNumber}`) {
  const total = items.reduce((sum, line) => sum + line.paid_amount, 0);
  return { bill_id: billId, bill_number: `N-${billId}`, payment_time: time, currency_id: 'CZK', total_price: String(total), bill_items: items };
}

let server: TestServer;
let auth: Record<string, string>;
const post = (action: string, body: unknown) => call('POST', `${server.api('enterprise')}/purchases/actions/${action}`, { headers: auth, body });
const balanceOf = (customerId: string) => foldedPoints(server.app.node.db, customerId, Date.now()) / 1000;
const codes = (response: { body: any }) =>
  response.body.data.recommended_best_rewards.map((reward: { code: string; max_count: number }) => [reward.code, reward.max_count]);

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
});
afterAll(() => server.close());

describe('recommended-best-rewards', () => {
  const recommend = (card: string, type: string, time: string, items: ReturnType<typeof item>[]) =>
    post('recommended-best-rewards', { store_id: CENTRAL, cashdesk_number: '3', card_number: card, reward_list_type: type, bill: bill(items, time) });

  it('F lists the product-conditioned reward with how often the bill allows it, and leaves out a group reward outside its hours', async () => {
    // 2 cappuccinos, 1 croissant at 14:00 in Prague Central. FREE-CAPPUCCINO: min(2 uses a bill,
    // 2 cappuccinos, 250 // 100 points) = 2. MORNING-PASTRY is outside 06:00–10:00; the
    // airport rewards are for another store.
    const response = await recommend(JANA_CARD, 'F', '2026-11-20T14:00:00+00:00', [item(PRODUCT.cappuccino, 2, 65), item(PRODUCT.croissant, 1, 35)]);
    expect(response.status).toBe(200);
    expect(codes(response)).toEqual([['FREE-CAPPUCCINO', 2]]);
    expect(response.body.data.total_items).toBe(1);
    expect(response.body.data.recommended_best_rewards[0]).toMatchObject({
      name: 'Free cappuccino',
      reward_priority: 1,
      reward_properties: { valid_from: '00:00:00', valid_to: '23:59:59' },
    });
  });

  it('in the morning the group-conditioned reward joins; A adds the automated one, by priority', async () => {
    const items = [item(PRODUCT.cappuccino, 2, 65), item(PRODUCT.croissant, 1, 35)];
    expect(codes(await recommend(JANA_CARD, 'F', '2026-11-20 08:30:00', items))).toEqual([
      ['FREE-CAPPUCCINO', 2],
      ['MORNING-PASTRY', 1],
    ]);
    expect(codes(await recommend(JANA_CARD, 'A', '2026-11-20 08:30:00', items))).toEqual([
      ['FREE-CAPPUCCINO', 2],
      ['BAKERY-10', 1],
      ['MORNING-PASTRY', 1],
    ]);
  });

  it('a reward the customer cannot afford has max_count 0 in F and is left out of C', async () => {
    // Petr holds 80 points; the free cappuccino costs 100.
    const items = [item(PRODUCT.cappuccino, 1, 65)];
    expect(codes(await recommend(PETR_CARD, 'F', '2026-11-20T14:00:00Z', items))).toEqual([['FREE-CAPPUCCINO', 0]]);
    expect(codes(await recommend(PETR_CARD, 'C', '2026-11-20T14:00:00Z', items))).toEqual([]);
    expect(codes(await recommend(JANA_CARD, 'C', '2026-11-20T14:00:00Z', items))).toEqual([['FREE-CAPPUCCINO', 1]]);
  });

  it('names the customer by customer_id as well as by card, with the same answer; both or neither answer 400', async () => {
    const sameBill = bill([item(PRODUCT.cappuccino, 2, 65), item(PRODUCT.croissant, 1, 35)], '2026-11-20 08:30:00');
    const ask = (who: Record<string, string>) =>
      post('recommended-best-rewards', { store_id: CENTRAL, cashdesk_number: '3', reward_list_type: 'A', bill: sameBill, ...who });
    const byCard = await ask({ card_number: PETR_CARD });
    const byId = await ask({ customer_id: DEMO_IDS.customerPetr });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byCard.body);
    // Petr's 80 points cannot pay the free cappuccino; Jana's 250 can: the id is what is priced.
    expect(codes(byId)).toContainEqual(['FREE-CAPPUCCINO', 0]);
    expect(codes(await ask({ customer_id: DEMO_IDS.customerJana }))).toContainEqual(['FREE-CAPPUCCINO', 2]);
    expect(
      expectError(await ask({ card_number: PETR_CARD, customer_id: DEMO_IDS.customerPetr }), 400, 'invalid_params_exception').error_data
        .invalid_params,
    ).toEqual([expect.objectContaining({ name: 'customer_id', reason: 'not_allowed_value' })]);
    expect(expectError(await ask({}), 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'card_number', reason: 'required' }),
    ]);
  });

  it('an unknown card answers not_found; a bad list type not_allowed_value; a bad time invalid_value_format', async () => {
    const items = [item(PRODUCT.cappuccino, 1, 65)];
    expect(
      expectError(await recommend('999', 'F', '2026-11-20T14:00:00Z', items), 400, 'invalid_params_exception').error_data.invalid_params[0],
    ).toMatchObject({ name: 'card_number', reason: 'not_found' });
    expect(
      expectError(await recommend(JANA_CARD, 'X', '2026-11-20T14:00:00Z', items), 400, 'invalid_params_exception').error_data.invalid_params[0],
    ).toMatchObject({ name: 'reward_list_type', reason: 'not_allowed_value' });
    expect(
      expectError(await recommend(JANA_CARD, 'F', 'yesterday noon', items), 400, 'invalid_params_exception').error_data.invalid_params[0],
    ).toMatchObject({ name: 'bill.payment_time', reason: 'invalid_value_format' });
  });
});

describe('accept-payment', () => {
  const accept = (body: Record<string, unknown>) => post('accept-payment', { store_id: CENTRAL, cashdesk_number: 3, payment_type: 'S', ...body });

  it('points pay up to max_points, priced at the point value', async () => {
    // 3 bags of espresso beans, 300 CZK. 100 points at 0.50 pay 50 CZK. Earned: 300 // 10 = 30,
    // plus 5 a bag = 15: 45. Balance after: 250 − 100 + 45 = 195. No credit asked for: the
    // 250 CZK paid in money give 2 % = 5 CZK back, on Jana's 200 CZK of credit: 205.
    const response = await accept({ card_number: JANA_CARD, max_points: '100', bill: bill([item(PRODUCT.espresso, 3, 100)]) });
    expect(response.status).toBe(200);
    expect(response.body.data.accepted_payment).toEqual({
      recommended_discounts: [],
      credit_points: 100,
      price_of_credit_points: 50,
      credit: 0,
      benefit_codes: [],
      credit_points_of_this_transaction: 45,
      total_credit_points: 195,
      total_credit: 205,
      messages: [],
    });
  });

  it('points payment is limited by the balance', async () => {
    // Asking for 1000 points: Jana has 250, worth 125 CZK; the 300 CZK bill could take 600.
    const response = await accept({ card_number: JANA_CARD, max_points: 1000, bill: bill([item(PRODUCT.espresso, 3, 100)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit_points: 250, price_of_credit_points: 125, total_credit_points: 45 });
  });

  it('payment type S collects points without bill-wide discounts; D discounts now and collects nothing', async () => {
    // At the airport: 2 croissants (70 CZK) and a bag of beans (100 CZK), 170 CZK.
    // S: BAKERY-10 takes 10 % of 70 = 7.00; AIRPORT-5PCT is bill-wide, so not now.
    //    Earned: bakery counts double, (70 × 2 + 100) // 10 = 24, plus 5 for the beans = 29.
    // D: 7.00 and 5 % of 170 = 8.50; no points.
    const items = [item(PRODUCT.croissant, 2, 35), item(PRODUCT.espresso, 1, 100)];
    const s = await accept({ store_id: AIRPORT, card_number: JANA_CARD, payment_type: 'S', bill: bill(items) });
    expect(s.body.data.accepted_payment.recommended_discounts.map((d: { code: string; discount: number }) => [d.code, d.discount])).toEqual([
      ['BAKERY-10', 7],
    ]);
    expect(s.body.data.accepted_payment).toMatchObject({ credit_points_of_this_transaction: 29, total_credit_points: 279 });
    const d = await accept({ store_id: AIRPORT, card_number: JANA_CARD, payment_type: 'D', bill: bill(items) });
    // AIRPORT-5PCT's 8.50 told by line: 5 % of 70 = 3.50 and of 100 = 5.00.
    expect(d.body.data.accepted_payment.recommended_discounts.map((x: { code: string; discount: number }) => [x.code, x.discount])).toEqual([
      ['BAKERY-10', 7],
      ['AIRPORT-5PCT', 3.5],
      ['AIRPORT-5PCT', 5],
    ]);
    expect(d.body.data.accepted_payment).toMatchObject({ credit_points_of_this_transaction: 0, total_credit_points: 250 });
  });

  it("recommended_discounts are the specs' DiscountItems, one per discounted line, as the 2021 spec types them", async () => {
    // At the airport, paying D: 2 croissants (70), a bag of beans (100), a cappuccino (65),
    // 235 CZK. BAKERY-10 is 10 % of the croissants, 7.00, on their line alone; AIRPORT-5PCT is
    // 5 % of the bill, 11.75: 3.50, 5.00 and 3.25 by line.
    const croissants = item(PRODUCT.croissant, 2, 35);
    const beans = item(PRODUCT.espresso, 1, 100);
    const cappuccino = item(PRODUCT.cappuccino, 1, 65);
    const response = await accept({ store_id: AIRPORT, card_number: JANA_CARD, payment_type: 'D', bill: bill([croissants, beans, cappuccino]) });
    expect(response.status).toBe(200);
    const discounts = response.body.data.accepted_payment.recommended_discounts;
    const line = (id: number, code: string, value: string, percent: string, description: string) => ({
      bill_item_id: String(id),
      discount_code: code,
      discount_value: value,
      discount_percent: percent,
      description,
    });
    expect(discounts).toMatchObject([
      line(croissants.bill_item_id, 'BAKERY-10', '7.00', '10.00', '10 % off bakery'),
      line(croissants.bill_item_id, 'AIRPORT-5PCT', '3.50', '5.00', '5 % off every bill at the airport'),
      line(beans.bill_item_id, 'AIRPORT-5PCT', '5.00', '5.00', '5 % off every bill at the airport'),
      line(cappuccino.bill_item_id, 'AIRPORT-5PCT', '3.25', '5.00', '5 % off every bill at the airport'),
    ]);
    // The 2021 spec's answer is the AcceptedPayment itself; interface.md wraps it in accepted_payment.
    const spec2021 = new OpenApiContract();
    const conforms = (acceptedPayment: unknown) => spec2021.check('POST', '/purchases/actions/accept-payment', 200, { data: acceptedPayment });
    expect(conforms(response.body.data.accepted_payment)).toEqual([]);
    expect(conforms({ recommended_discounts: [{ ...discounts[0], discount_value: 7 }] })).not.toEqual([]);
  });

  it('a free cappuccino voucher is told on the cheapest cappuccino it takes, with its share of the line', async () => {
    // CAPPU-2026 gives one cappuccino for 0: of two lines, the 60 CZK one, 60.00 off, all of it (100 %).
    const dear = item(PRODUCT.cappuccino, 1, 65);
    const cheap = item(PRODUCT.cappuccino, 1, 60);
    const response = await accept({ card_number: JANA_CARD, benefit_codes: ['CAPPU-2026'], bill: bill([dear, cheap]) });
    expect(response.status).toBe(200);
    expect(response.body.data.accepted_payment.recommended_discounts).toMatchObject([
      {
        bill_item_id: String(cheap.bill_item_id),
        discount_code: 'CAPPU-2026',
        discount_value: '60.00',
        discount_percent: '100.00',
        type: 'voucher',
        discount: 60,
      },
    ]);
  });

  it('a campaign product on the bill gets its cash-desk price', async () => {
    // Filter coffee is 20 % off in the autumn campaign: 2 × 120 = 240, 48.00 off.
    const response = await accept({ card_number: JANA_CARD, bill: bill([item(PRODUCT.filter, 2, 120)]) });
    expect(response.body.data.accepted_payment.recommended_discounts).toEqual([
      {
        bill_item_id: String(itemNumber),
        discount_code: `campaign:${'de' + (0x302).toString(16).padStart(24, '0')}`,
        discount_value: '48.00',
        discount_percent: '20.00',
        description: 'Campaign price',
        code: `campaign:${'de' + (0x302).toString(16).padStart(24, '0')}`,
        name: 'Campaign price',
        type: 'campaign_product',
        discount: 48,
        bill_item_ids: [String(itemNumber)],
      },
    ]);
    // Earned on what is paid after the campaign price: 192 // 10 = 19.
    expect(response.body.data.accepted_payment.credit_points_of_this_transaction).toBe(19);
  });

  it('a voucher applies its reward; one from another store, or without its items, is refused', async () => {
    // CAPPU-2026 gives Jana a cappuccino for 0: 65.00 off.
    const applied = await accept({ card_number: JANA_CARD, benefit_codes: ['CAPPU-2026'], bill: bill([item(PRODUCT.cappuccino, 1, 65)]) });
    expect(applied.body.data.accepted_payment.benefit_codes).toEqual(['CAPPU-2026']);
    expect(applied.body.data.accepted_payment.recommended_discounts[0]).toMatchObject({ code: 'CAPPU-2026', type: 'voucher', discount: 65 });
    const noItems = await accept({ card_number: JANA_CARD, benefit_codes: ['CAPPU-2026'], bill: bill([item(PRODUCT.croissant, 1, 35)]) });
    expect(expectError(noItems, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'benefit_codes.0',
      reason: 'not_enough_items_for_voucher',
    });

    server.app.node.writes.write(null, (tx) =>
      tx.insert('vouchers', {
        id: server.app.node.newId(),
        customer_id: DEMO_IDS.customerJana,
        reward_id: 'de' + (0x604).toString(16).padStart(24, '0'),
        code: 'AIRPORT-ONLY',
        value_minor: 5000,
      }),
    );
    const elsewhere = await accept({ card_number: JANA_CARD, benefit_codes: ['AIRPORT-ONLY'], bill: bill([item(PRODUCT.espresso, 1, 100)]) });
    expect(expectError(elsewhere, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'benefit_codes.0',
      reason: 'voucher_not_allowed_in_store',
    });
    const unknown = await accept({ card_number: JANA_CARD, benefit_codes: ['NO-SUCH-CODE'], bill: bill([item(PRODUCT.espresso, 1, 100)]) });
    expect(expectError(unknown, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ reason: 'not_found' });
  });

  it('an expired point record is not spent', async () => {
    // Eva's only 40 points expired at the end of January.
    server.app.node.writes.write(null, (tx) =>
      tx.insert('point_records', {
        id: server.app.node.newId(),
        customer_id: DEMO_IDS.customerEva,
        kind: 'collection',
        points_milli: 40_000,
        valid_to: '2026-01-31T23:59:59.000Z',
        created_at: '2026-01-01T00:00:00.000Z',
      }),
    );
    const response = await accept({ card_number: EVA_CARD, max_points: 40, bill: bill([item(PRODUCT.espresso, 1, 100)]) });
    expect(response.body.data.accepted_payment).toMatchObject({ credit_points: 0, price_of_credit_points: 0 });
  });

  it('names the customer by customer_id as well as by card, with the same answer', async () => {
    // Jana's points, credit and voucher all count: a cappuccino with CAPPU-2026, beans paid
    // partly with points and credit. Anonymous, the same bill earns and pays nothing.
    const sameBill = bill([item(PRODUCT.cappuccino, 1, 65), item(PRODUCT.espresso, 2, 100)]);
    const asked = { max_points: '40', max_credit: '30', benefit_codes: ['CAPPU-2026'], bill: sameBill };
    const byCard = await accept({ card_number: JANA_CARD, ...asked });
    expect(byCard.status).toBe(200);
    const byId = await accept({ customer_id: DEMO_IDS.customerJana, ...asked });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byCard.body);
    expect(byCard.body.data.accepted_payment).toMatchObject({ credit_points: 40, credit: 30, benefit_codes: ['CAPPU-2026'] });
    const anonymous = await accept({ bill: sameBill });
    expect(anonymous.body.data.accepted_payment).toMatchObject({ credit_points: 0, credit: 0, total_credit: 0 });
  });

  it('an anonymous bill earns no points: credit_points_of_this_transaction and total_credit_points are 0', async () => {
    // The same 200 CZK of beans earns Jana 20 + 10 = 30 points; nobody, anonymously.
    const beans = bill([item(PRODUCT.espresso, 2, 100)]);
    expect((await accept({ card_number: JANA_CARD, bill: beans })).body.data.accepted_payment.credit_points_of_this_transaction).toBe(30);
    const anonymous = await accept({ bill: beans });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.accepted_payment).toMatchObject({ credit_points_of_this_transaction: 0, total_credit_points: 0 });
  });

  it('with neither card_number nor customer_id the bill is priced anonymously, and what only a customer has answers 400 required rather than being dropped', async () => {
    const sameBill = bill([item(PRODUCT.cappuccino, 1, 65), item(PRODUCT.espresso, 2, 100)]);
    const priced = await accept({ bill: sameBill });
    expect(priced.status).toBe(200);
    expect(priced.body.data.accepted_payment).toMatchObject({ credit_points: 0, credit: 0, total_credit: 0 });
    for (const asked of [{ max_points: '40' }, { max_credit: '30' }, { benefit_codes: ['CAPPU-2026'] }, { max_points: 10, max_credit: 5 }]) {
      const refused = await accept({ bill: sameBill, ...asked });
      const [param] = expectError(refused, 400, 'invalid_params_exception').error_data.invalid_params;
      expect(param).toMatchObject({ name: 'card_number', reason: 'required' });
      expect(param.message).toMatch(/needs the customer/);
    }
    expect((await accept({ bill: sameBill, max_points: '0', max_credit: 0, benefit_codes: [] })).status).toBe(200);
  });

  it('a customer_id beside a card_number answers not_allowed_value; an unknown one not_found; one not an id invalid_value_format', async () => {
    const body = { bill: bill([item(PRODUCT.espresso, 1, 100)]) };
    const both = await accept({ card_number: JANA_CARD, customer_id: DEMO_IDS.customerJana, ...body });
    expect(expectError(both, 400, 'invalid_params_exception').error_data.invalid_params).toEqual([
      expect.objectContaining({ name: 'customer_id', reason: 'not_allowed_value', value: DEMO_IDS.customerJana }),
    ]);
    const unknown = await accept({ customer_id: 'ffffffffffffffffffffffffff', ...body });
    expect(expectError(unknown, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'customer_id',
      reason: 'not_found',
    });
    const malformed = await accept({ customer_id: 'jana', ...body });
    expect(expectError(malformed, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'customer_id',
      reason: 'invalid_value_format',
    });
  });

  it('a negative max_points or cashdesk_number answers invalid_value_format naming the field and its value', async () => {
    const body = { card_number: JANA_CARD, bill: bill([item(PRODUCT.espresso, 1, 100)]) };
    const refused = [
      await accept({ ...body, max_points: '-50' }),
      await accept({ ...body, max_points: -0.5 }),
      await accept({ ...body, cashdesk_number: -1 }),
      await post('recommended-best-rewards', { ...body, store_id: CENTRAL, cashdesk_number: -1, reward_list_type: 'F' }),
      await post('send-purchase', { ...body, store_id: CENTRAL, cashdesk_number: -1 }),
    ];
    expect(refused.map((response) => expectError(response, 400, 'invalid_params_exception').error_data.invalid_params)).toEqual([
      [{ name: 'max_points', reason: 'invalid_value_format', value: '-50', message: 'must not be negative' }],
      [{ name: 'max_points', reason: 'invalid_value_format', value: '-0.5', message: 'must not be negative' }],
      [{ name: 'cashdesk_number', reason: 'invalid_value_format', value: '-1', message: 'must not be negative' }],
      [{ name: 'cashdesk_number', reason: 'invalid_value_format', value: '-1', message: 'must not be negative' }],
      [{ name: 'cashdesk_number', reason: 'invalid_value_format', value: '-1', message: 'must not be negative' }],
    ]);
    expect((await accept({ ...body, max_points: '0', cashdesk_number: 0 })).status).toBe(200);
  });

  it('an item paid above its price times quantity answers item_price_lower_than_paid_amount', async () => {
    const response = await accept({ card_number: JANA_CARD, bill: bill([item(PRODUCT.espresso, 1, 100, 150)]) });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'bill.bill_items.0.paid_amount',
      reason: 'item_price_lower_than_paid_amount',
    });
  });
});

describe('send-purchase, cancellation and returns', () => {
  it('accept-payment then send-purchase of the same bill ends where accept-payment said', async () => {
    // Jana: 250. The bill of 3 bags: 100 points pay, 45 earned → 195, as accept-payment answers.
    const paid = bill([item(PRODUCT.espresso, 3, 100)], '2026-11-21 10:00:00', 'S-1');
    const before = balanceOf(DEMO_IDS.customerJana);
    const accepted = await post('accept-payment', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: JANA_CARD,
      payment_type: 'S',
      max_points: 100,
      bill: paid,
    });
    const sent = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: JANA_CARD,
      bill: { ...paid, payment_type: 'S', payment_recap: { credit_points: accepted.body.data.accepted_payment.credit_points, amount_for_credit: 0 } },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.data.purchase_id).toMatch(/^[0-9a-f]{26}$/);
    expect(balanceOf(DEMO_IDS.customerJana)).toBe(before - 100 + 45);
    expect(balanceOf(DEMO_IDS.customerJana)).toBe(accepted.body.data.accepted_payment.total_credit_points);
  });

  it('the same bill sent twice answers already_exists with the first purchase_id, and counts once', async () => {
    const once = bill([item(PRODUCT.cappuccino, 1, 65)], '2026-11-21 11:00:00', 'S-2');
    const first = await post('send-purchase', { store_id: CENTRAL, cashdesk_number: 1, card_number: PETR_CARD, bill: once });
    const again = await post('send-purchase', { store_id: CENTRAL, cashdesk_number: 1, card_number: PETR_CARD, bill: once });
    const error = expectError(again, 400, 'invalid_params_exception');
    expect(error.error_data.invalid_params).toEqual([
      { name: 'bill.bill_id', reason: 'already_exists', value: 'S-2', message: 'This bill was already sent' },
    ]);
    expect(error.error_data.purchase_id).toBe(first.body.data.purchase_id);
    // Petr: 80 + 65 // 10 = 86, once.
    expect(balanceOf(DEMO_IDS.customerPetr)).toBe(86);
  });

  it('a cancellation gives back the points spent and takes back the points earned', async () => {
    // Petr pays 50 points for a 300 CZK bill of beans and earns 45: 86 − 50 + 45 = 81.
    // Cancelling it: + 50 given back, − 45 taken back: 86 again.
    const original = bill([item(PRODUCT.espresso, 3, 100)], '2026-11-21 12:00:00', 'S-3');
    await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...original, payment_recap: { credit_points: 50 } },
    });
    expect(balanceOf(DEMO_IDS.customerPetr)).toBe(81);
    const cancel = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...original, bill_id: 'S-3-CANCEL', canceled: true },
    });
    expect(cancel.status).toBe(201);
    expect(balanceOf(DEMO_IDS.customerPetr)).toBe(86);
  });

  it('a second cancellation names bill.bill_number and its value; the original sent again as canceled names its bill_id and says how to cancel', async () => {
    const original = bill([item(PRODUCT.espresso, 1, 100)], '2026-11-21 12:30:00', 'S-8');
    const sold = await post('send-purchase', { store_id: CENTRAL, cashdesk_number: 1, card_number: PETR_CARD, bill: original });
    const resent = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...original, canceled: true },
    });
    const resentError = expectError(resent, 400, 'invalid_params_exception');
    expect(resentError.error_data.invalid_params).toEqual([
      {
        name: 'bill.bill_id',
        reason: 'already_exists',
        value: 'S-8',
        message: expect.stringMatching(/cancellation is a new bill, with its own bill_id and the original's bill_number/),
      },
    ]);
    expect(resentError.error_data.purchase_id).toBe(sold.body.data.purchase_id);

    const cancel = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...original, bill_id: 'S-8-CANCEL', canceled: true },
    });
    expect(cancel.status).toBe(201);
    const twice = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...original, bill_id: 'S-8-CANCEL-2', canceled: true },
    });
    const twiceError = expectError(twice, 400, 'invalid_params_exception');
    expect(twiceError.error_data.invalid_params).toEqual([
      { name: 'bill.bill_number', reason: 'already_exists', value: 'N-S-8', message: 'The bill this bill_number names is cancelled already' },
    ]);
    expect(twiceError.error_data.purchase_id).toBe(cancel.body.data.purchase_id);
  });

  it('a partial return after the earned points were spent takes them back into a negative balance, listed', async () => {
    // Eva buys 10 bags: 1000 // 10 = 100, plus 5 × 10 = 150 points; she spends all 150.
    // Returning 2 bags takes back 200 // 10 + 5 × 2 = 30: her balance is −30, listed.
    await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 2,
      card_number: EVA_CARD,
      bill: bill([item(PRODUCT.espresso, 10, 100)], '2026-11-21 13:00:00', 'S-4'),
    });
    expect(balanceOf(DEMO_IDS.customerEva)).toBe(150);
    await call('POST', `${server.api('enterprise')}/points/actions/reduce-points`, {
      headers: auth,
      body: { customer_id: DEMO_IDS.customerEva, amount: 150 },
    });
    const returned = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 2,
      card_number: EVA_CARD,
      bill: bill([item(PRODUCT.espresso, -2, 100)], '2026-11-21 15:00:00', 'S-4-RETURN'),
    });
    expect(returned.status).toBe(201);
    expect(balanceOf(DEMO_IDS.customerEva)).toBe(-30);
    const listed = server.app.node.db
      .prepare("SELECT detail FROM sync_conflicts WHERE kind = 'points_overspent' AND entity_id = ?")
      .get(DEMO_IDS.customerEva) as { detail: string };
    expect(JSON.parse(listed.detail)).toMatchObject({ balance_points: -30 });
  });

  it('assign-customer attaches an anonymous purchase later and earns its points then, once', async () => {
    // An anonymous 200 CZK bill of beans: 20 + 10 = 30 points for Jana when assigned.
    const anonymous = bill([item(PRODUCT.espresso, 2, 100)], '2026-11-21 16:00:00', 'S-5');
    expect((await post('send-purchase', { store_id: CENTRAL, cashdesk_number: 1, bill: anonymous })).status).toBe(201);
    const before = balanceOf(DEMO_IDS.customerJana);
    expect((await post('assign-customer', { store_id: CENTRAL, external_purchase_id: 'S-5', card_number: JANA_CARD })).status).toBe(204);
    expect((await post('assign-customer', { store_id: CENTRAL, external_purchase_id: 'S-5', customer_id: DEMO_IDS.customerJana })).status).toBe(204);
    expect(balanceOf(DEMO_IDS.customerJana)).toBe(before + 30);
    const other = await post('assign-customer', { store_id: CENTRAL, external_purchase_id: 'S-5', card_number: PETR_CARD });
    expect(expectError(other, 400, 'invalid_params_exception').error_data.invalid_params[0].reason).toBe('relation_already_exists');
    const missing = await post('assign-customer', { store_id: CENTRAL, external_purchase_id: 'NOPE', card_number: PETR_CARD });
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'external_purchase_id',
      reason: 'not_found',
    });
  });

  it('paying with more points than the balance answers not_enough_points_for_payment and stores nothing', async () => {
    const purchases = () => (server.app.node.db.prepare('SELECT count(*) AS n FROM purchases').get() as { n: number }).n;
    const before = purchases();
    const response = await post('send-purchase', {
      store_id: CENTRAL,
      cashdesk_number: 1,
      card_number: PETR_CARD,
      bill: { ...bill([item(PRODUCT.espresso, 3, 100)], '2026-11-21 17:00:00', 'S-6'), payment_recap: { credit_points: 1000 } },
    });
    expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'bill.payment_recap.credit_points',
      reason: 'not_enough_points_for_payment',
    });
    expect(purchases()).toBe(before);
  });
});
