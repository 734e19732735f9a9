/**
 * The recommendation engine on a small hand-made history where the right answers are plain.
 * Products (demo): espresso beans E, filter coffee F, cappuccino C (coffee group, one brand);
 * croissant R, sourdough S, cinnamon roll N (bakery group, another brand).
 * Jana bought C three times and R once; Petr bought E with F twice; four anonymous bills
 * pair R with N, and two hold S alone. R and N are bought together far more than chance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { expectError } from '../../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { demoId, demoProductCode } from '../../support/ids.js';

const [E, F, C, R, S, N] = [0x301, 0x302, 0x303, 0x304, 0x305, 0x306].map(demoId) as [string, string, string, string, string, string];

let server: TestServer;
let auth: Record<string, string>;
let billNumber = 0;

async function buy(products: string[], card?: string) {
  billNumber += 1;
  const items = products.map((product, index) => ({
    plu_ids: [{ list_code: 'GLOBAL', code: demoProductCode(product) }],
    quantity: 1,
    price: 50,
    paid_amount: 50,
    bill_item_id: index + 1,
  }));
  const response = await call('POST', `${server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: card,
      bill: { bill_id: `R-${billNumber}`, payment_time: '2026-11-01 10:00:00', total_price: String(50 * items.length), bill_items: items },
    },
  });
  expect(response.status).toBe(201);
}

const recommend = (path: string, query: string) =>
  call('GET', `${server.api('enterprise')}/recommendation-engine/${path}?${query}`, { headers: auth });
const list = async (path: string, query: string) => (await recommend(path, query)).body.data.recommended_products_list as string[];

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
  for (let i = 0; i < 3; i += 1) await buy([C], demoCredentials.customer_card);
  await buy([R], demoCredentials.customer_card);
  for (let i = 0; i < 2; i += 1) await buy([E, F], '2000000000024');
  for (let i = 0; i < 4; i += 1) await buy([R, N]);
  for (let i = 0; i < 2; i += 1) await buy([S]);
});
afterAll(() => server.close());

describe('product recommendations', () => {
  it('eliminate keeps what fits the customer, best first: what she bought, then its group', async () => {
    // Jana: C bought thrice (product, coffee group and brand weigh in); E only shares C's
    // group and brand; R bought once, S only shares R's group.
    expect(
      await list(
        'product/actions/eliminate',
        `customer_id=${DEMO_IDS.customerJana}&product_id_list[]=${S}&product_id_list[]=${E}&product_id_list[]=${C}`,
      ),
    ).toEqual([C, E, S]);
  });

  it('eliminate answers nothing for a customer without history; combined fills up with best sellers', async () => {
    expect(await list('product/actions/eliminate', `customer_id=${DEMO_IDS.customerEva}&product_id_list=${E},${C}`)).toEqual([]);
    // Units sold: R 5, N 4, C 3, then E, F and S 2 each.
    expect(await list('product/actions/combined', `customer_id=${DEMO_IDS.customerEva}&count=3`)).toEqual([R, N, C]);
  });

  it('order sorts the whole list and cuts it to count', async () => {
    expect(await list('product/actions/order', `customer_id=${DEMO_IDS.customerPetr}&product_id_list=${S},${F},${C},${E}&count=3`)).toEqual([
      E,
      F,
      C,
    ]);
  });

  it("combined always answers count products, the customer's first", async () => {
    const products = await list('product/actions/combined', `customer_id=${DEMO_IDS.customerPetr}&count=5`);
    expect(products).toHaveLength(5);
    expect(products.slice(0, 2).sort()).toEqual([E, F].sort());
  });
});

describe('shopping-cart recommendations', () => {
  it('the cart steers toward what is bought with it, and never repeats it', async () => {
    // Eva has no history; with a croissant in the cart, the cinnamon roll is its pairing.
    expect(
      await list(
        'shopping-cart/actions/eliminate',
        `customer_id=${DEMO_IDS.customerEva}&cart_product_ids[0]=${R}&product_id_list=${N},${E},${S},${R}`,
      ),
    ).toEqual([N]);
    const combined = await list('shopping-cart/actions/combined', `customer_id=${DEMO_IDS.customerEva}&cart_product_ids=${R}&count=4`);
    expect(combined[0]).toBe(N);
    expect(combined).not.toContain(R);
    expect(combined).toHaveLength(4);
  });

  it('order needs the cart, not the customer', async () => {
    expect(await list('shopping-cart/actions/order', `cart_product_ids=${R}&product_id_list=${S},${N}`)).toEqual([N, S]);
    const missing = await recommend('shopping-cart/actions/order', `product_id_list=${S}`);
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({
      name: 'cart_product_ids',
      reason: 'required',
    });
  });

  it('answers the newer POST form too', async () => {
    const response = await call('POST', `${server.api('enterprise')}/recommendation-engine/shopping-cart/actions/combine`, {
      headers: auth,
      body: { customer_id: DEMO_IDS.customerEva, cart_product_ids: [R], count: 2 },
    });
    expect(response.body.data).toEqual({ recommended_products_list: [N, expect.any(String)], total_items: 2 });
  });
});

describe('recommendation contract', () => {
  it('an unknown customer answers not_found, a missing one required, a bad count 400', async () => {
    expect(
      expectError(await recommend('product/actions/combined', 'customer_id=ffffffffffffffffffffffffff'), 400, 'invalid_params_exception').error_data
        .invalid_params[0],
    ).toMatchObject({ name: 'customer_id', reason: 'not_found' });
    expect(expectError(await recommend('product/actions/eliminate', ''), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject(
      { name: 'customer_id', reason: 'required' },
    );
    expect(
      expectError(await recommend('product/actions/order', `customer_id=${DEMO_IDS.customerJana}&count=0`), 400, 'invalid_params_exception')
        .error_data.invalid_params[0].name,
    ).toBe('count');
  });

  it('an empty list value is refused; order keeps a product it knows nothing about, last', async () => {
    expect((await recommend('product/actions/eliminate', `customer_id=${DEMO_IDS.customerJana}&product_id_list=`)).status).toBe(400);
    expect(await list('product/actions/order', `customer_id=${DEMO_IDS.customerJana}&product_id_list=ffffffffffffffffffffffffff`)).toEqual([
      'ffffffffffffffffffffffffff',
    ]);
  });
});

describe('what counts as bought (a server of its own)', () => {
  let own: TestServer;
  let ownAuth: Record<string, string>;
  const EVA_CARD = '2000000000031';
  const send = (bill: Record<string, unknown>, card?: string) =>
    call('POST', `${own.api('enterprise')}/purchases/actions/send-purchase`, {
      headers: ownAuth,
      body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: card, bill },
    });
  const line = (product: string, quantity = 1) => ({
    plu_ids: [{ list_code: 'GLOBAL', code: demoProductCode(product) }],
    quantity,
    price: 50,
    paid_amount: 50 * quantity,
    bill_item_id: 1,
  });
  const billOf = (billId: string, quantity = 1, product = E) => ({
    bill_id: billId,
    bill_number: billId,
    payment_time: '2026-11-02 10:00:00',
    total_price: String(50 * quantity),
    bill_items: [line(product, quantity)],
  });
  const evaFits = async (product: string) =>
    (
      await call(
        'GET',
        `${own.api('enterprise')}/recommendation-engine/product/actions/eliminate?customer_id=${DEMO_IDS.customerEva}&product_id_list=${product}`,
        { headers: ownAuth },
      )
    ).body.data.recommended_products_list as string[];

  beforeAll(async () => {
    own = await startTestServer();
    ownAuth = await demoPosLogin(own);
  });
  afterAll(() => own.close());

  it('a cancelled purchase stops counting for its customer', async () => {
    expect((await send(billOf('K-1'), EVA_CARD)).status).toBe(201);
    expect(await evaFits(E)).toEqual([E]);
    expect((await send({ ...billOf('K-2'), bill_number: 'K-1', canceled: true }, EVA_CARD)).status).toBe(201);
    expect(await evaFits(E)).toEqual([]);
  });

  it('a returned line is not a purchase', async () => {
    expect((await send(billOf('K-3', -1, S), EVA_CARD)).status).toBe(201);
    expect(await evaFits(S)).toEqual([]);
  });

  it('a purchase assigned to the customer later counts for her from then on', async () => {
    expect((await send(billOf('K-4', 1, F))).status).toBe(201);
    expect(await evaFits(F)).toEqual([]);
    const assigned = await call('POST', `${own.api('enterprise')}/purchases/actions/assign-customer`, {
      headers: ownAuth,
      body: { store_id: DEMO_IDS.storeCentral, external_purchase_id: 'K-4', card_number: EVA_CARD },
    });
    expect(assigned.status).toBe(204);
    expect(await evaFits(F)).toEqual([F]);
  });
});

describe("every endpoint's contract", () => {
  const endpoints = [
    'product/actions/eliminate',
    'product/actions/order',
    'product/actions/combined',
    'shopping-cart/actions/eliminate',
    'shopping-cart/actions/order',
    'shopping-cart/actions/combined',
  ];
  const post = (path: string, body: Record<string, unknown>) =>
    call('POST', `${server.api('enterprise')}/recommendation-engine/${path.replace('/combined', '/combine')}`, { headers: auth, body });

  it('an unknown customer answers 400 not_found on each, in both forms', async () => {
    for (const path of endpoints) {
      const query = `customer_id=ffffffffffffffffffffffffff&cart_product_ids=${R}`;
      expect(expectError(await recommend(path, query), 400, 'invalid_params_exception').error_data.invalid_params[0], path).toMatchObject({
        name: 'customer_id',
        reason: 'not_found',
      });
      const posted = await post(path, { customer_id: 'ffffffffffffffffffffffffff', cart_product_ids: [R] });
      expect(expectError(posted, 400, 'invalid_params_exception').error_data.invalid_params[0], path).toMatchObject({
        name: 'customer_id',
        reason: 'not_found',
      });
    }
  });

  it('each names its mandatory parameter when it is missing', async () => {
    for (const path of endpoints) {
      const mandatory = path === 'shopping-cart/actions/order' ? 'cart_product_ids' : 'customer_id';
      expect(
        expectError(await recommend(path, `product_id_list=${S}`), 400, 'invalid_params_exception').error_data.invalid_params[0],
        path,
      ).toMatchObject({ name: mandatory, reason: 'required' });
    }
  });

  it('a count above 1,000 is refused; combined answers exactly count products and order at most count', async () => {
    for (const path of endpoints) {
      const response = await recommend(path, `customer_id=${DEMO_IDS.customerJana}&cart_product_ids=${R}&count=1001`);
      expect(expectError(response, 400, 'invalid_params_exception').error_data.invalid_params[0].name, path).toBe('count');
    }
    for (const target of ['product', 'shopping-cart']) {
      const combined = (await recommend(`${target}/actions/combined`, `customer_id=${DEMO_IDS.customerPetr}&cart_product_ids=${R}&count=2`)).body
        .data;
      expect(combined.recommended_products_list).toHaveLength(2);
      expect(combined.total_items).toBe(2);
      expect(
        await list(`${target}/actions/order`, `customer_id=${DEMO_IDS.customerPetr}&cart_product_ids=${R}&product_id_list=${E},${F},${S}&count=2`),
      ).toEqual([E, F]);
    }
  });

  it('an answer with nothing to recommend is an empty list with total_items 0', async () => {
    for (const path of ['product/actions/eliminate', 'shopping-cart/actions/eliminate']) {
      const response = await recommend(path, `customer_id=${DEMO_IDS.customerEva}&product_id_list=${E},${C}`);
      expect(response.body, path).toEqual({ data: { recommended_products_list: [], total_items: 0 } });
    }
  });
});
