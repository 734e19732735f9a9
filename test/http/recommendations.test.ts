/**
 * The recommendation engine on a small hand-made history where the right answers are plain.
 * Products (demo): espresso beans E, filter coffee F, cappuccino C (coffee group, one brand);
 * croissant R, sourdough S, cinnamon roll N (bakery group, another brand).
 * Jana bought C three times and R once; Petr bought E with F twice; four anonymous bills
 * pair R with N, and two hold S alone. R and N are bought together far more than chance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { expectError } from '../support/expect-error.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

const id = (n: number) => `de${n.toString(16).padStart(24, '0')}`;
const [E, F, C, R, S, N] = [0x301, 0x302, 0x303, 0x304, 0x305, 0x306].map(id) as [string, string, string, string, string, string];
const code = (productId: string) => `859000${parseInt(productId.slice(2), 16)}`;

let server: TestServer;
let auth: Record<string, string>;
let billNumber = 0;

async function buy(products: string[], card?: string) {
  billNumber += 1;
  const items = products.map((product, index) => ({ plu_ids: [{ list_code: 'GLOBAL', code: code(product) }], quantity: 1, price: 50, paid_amount: 50, bill_item_id: index + 1 }));
  const response = await call('POST', `${server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: auth,
    body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: card, bill: { bill_id: `R-${billNumber}`, payment_time: '2026-11-01 10:00:00', total_price: String(50 * items.length), bill_items: items } },
  });
  expect(response.status).toBe(201);
}

const recommend = (path: string, query: string) => call('GET', `${server.api('enterprise')}/recommendation-engine/${path}?${query}`, { headers: auth });
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
    expect(await list('product/actions/eliminate', `customer_id=${DEMO_IDS.customerJana}&product_id_list[]=${S}&product_id_list[]=${E}&product_id_list[]=${C}`)).toEqual([C, E, S]);
  });

  it('eliminate answers nothing for a customer without history; combined fills up with best sellers', async () => {
    expect(await list('product/actions/eliminate', `customer_id=${DEMO_IDS.customerEva}&product_id_list=${E},${C}`)).toEqual([]);
    // Units sold: R 5, N 4, C 3, then E, F and S 2 each.
    expect(await list('product/actions/combined', `customer_id=${DEMO_IDS.customerEva}&count=3`)).toEqual([R, N, C]);
  });

  it('order sorts the whole list and cuts it to count', async () => {
    expect(await list('product/actions/order', `customer_id=${DEMO_IDS.customerPetr}&product_id_list=${S},${F},${C},${E}&count=3`)).toEqual([E, F, C]);
  });

  it('combined always answers count products, the customer\'s first', async () => {
    const products = await list('product/actions/combined', `customer_id=${DEMO_IDS.customerPetr}&count=5`);
    expect(products).toHaveLength(5);
    expect(products.slice(0, 2).sort()).toEqual([E, F].sort());
  });
});

describe('shopping-cart recommendations', () => {
  it('the cart steers toward what is bought with it, and never repeats it', async () => {
    // Eva has no history; with a croissant in the cart, the cinnamon roll is its pairing.
    expect(await list('shopping-cart/actions/eliminate', `customer_id=${DEMO_IDS.customerEva}&cart_product_ids[0]=${R}&product_id_list=${N},${E},${S},${R}`)).toEqual([N]);
    const combined = await list('shopping-cart/actions/combined', `customer_id=${DEMO_IDS.customerEva}&cart_product_ids=${R}&count=4`);
    expect(combined[0]).toBe(N);
    expect(combined).not.toContain(R);
    expect(combined).toHaveLength(4);
  });

  it('order needs the cart, not the customer', async () => {
    expect(await list('shopping-cart/actions/order', `cart_product_ids=${R}&product_id_list=${S},${N}`)).toEqual([N, S]);
    const missing = await recommend('shopping-cart/actions/order', `product_id_list=${S}`);
    expect(expectError(missing, 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: 'cart_product_ids', reason: 'required' });
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
    expect(expectError(await recommend('product/actions/combined', 'customer_id=ffffffffffffffffffffffffff'), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: 'customer_id', reason: 'not_found' });
    expect(expectError(await recommend('product/actions/eliminate', ''), 400, 'invalid_params_exception').error_data.invalid_params[0]).toMatchObject({ name: 'customer_id', reason: 'required' });
    expect(expectError(await recommend('product/actions/order', `customer_id=${DEMO_IDS.customerJana}&count=0`), 400, 'invalid_params_exception').error_data.invalid_params[0].name).toBe('count');
  });

  it('an empty list value is refused; order keeps a product it knows nothing about, last', async () => {
    expect((await recommend('product/actions/eliminate', `customer_id=${DEMO_IDS.customerJana}&product_id_list=`)).status).toBe(400);
    expect(await list('product/actions/order', `customer_id=${DEMO_IDS.customerJana}&product_id_list=ffffffffffffffffffffffffff`)).toEqual(['ffffffffffffffffffffffffff']);
  });
});
