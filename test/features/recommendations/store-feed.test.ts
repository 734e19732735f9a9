/**
 * A store with no hub keeps a change feed for its recommendation model alone: the changes of
 * the tables the model reads, and those only until it has followed them (DESIGN §5: a store
 * keeps no feed rows it will not serve). Bills with a card also write point and credit
 * records and the customer's published state; none of them reaches the feed.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { databaseFile } from '../../../src/root/node.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { demoId, demoProductCode } from '../../support/ids.js';

const [CAPPUCCINO, CROISSANT] = [0x303, 0x304].map(demoId) as [string, string];

let server: TestServer;
let auth: Record<string, string>;
let feed: Database.Database;

beforeAll(async () => {
  server = await startTestServer();
  auth = await demoPosLogin(server);
  feed = new Database(databaseFile(server.dataDir), { readonly: true });
});
afterAll(async () => {
  feed.close();
  await server.close();
});

async function buy(bill: number): Promise<void> {
  const response = await call('POST', `${server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      bill: {
        bill_id: `F-${bill}`,
        payment_time: '2026-11-01 10:00:00',
        total_price: '100',
        bill_items: [CAPPUCCINO, CROISSANT].map((product, index) => ({
          plu_ids: [{ list_code: 'GLOBAL', code: demoProductCode(product) }],
          quantity: 1,
          price: 50,
          paid_amount: 50,
          bill_item_id: index + 1,
        })),
      },
    },
  });
  expect(response.status).toBe(201);
}

const entities = () => feed.prepare<[], string>('SELECT DISTINCT entity FROM changes ORDER BY entity').pluck().all();
const feedRows = () => feed.prepare<[], number>('SELECT count(*) FROM changes').pluck().get()!;

describe('the change feed of a store without a hub', () => {
  it('holds the bills the model has not followed yet, and no other table', async () => {
    for (let bill = 1; bill <= 5; bill += 1) await buy(bill);
    expect(entities()).toEqual(['purchase_items', 'purchases']);
    expect(feedRows()).toBeGreaterThanOrEqual(15);
  });

  it('lets the changes go once the model has followed them, and the model counted the bills', async () => {
    const url = `${server.api('enterprise')}/recommendation-engine/product/actions/combined?customer_id=${DEMO_IDS.customerEva}&count=2`;
    const combined = await call('GET', url, { headers: auth });
    expect(combined.status).toBe(200);
    // Sold alike, the two are ranked by the engine's own tie rule.
    expect([...(combined.body.data.recommended_products_list as string[])].sort()).toEqual([CAPPUCCINO, CROISSANT].sort());
    expect(feedRows()).toBe(0);
  });
});
