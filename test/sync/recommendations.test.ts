/**
 * The recommendation model across real processes (issue 6): the hub builds it from the
 * purchases stores push, its rows replicate to every store, and a store answers from them
 * plus its own purchases the model does not hold yet — at once, with the hub down, and
 * without counting them twice once the hub has them.
 *
 * Products (demo): espresso beans E, filter coffee F, cappuccino C (Coffee, Roastery);
 * croissant R, sourdough S, cinnamon roll N (Bakery, Home Bakery). The demo history (nine
 * bills) has Petr buying E with F twice and three anonymous bills pairing R with N; Eva
 * (card …031) has bought nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { builderKey } from '../../src/features/recommendations/profile-keys.js';
import { Cluster, posLogin, type NodeProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { call } from '../support/server.js';
import { demoId, demoProductCode } from '../support/ids.js';

const [E, F, C, , S, N] = [0x301, 0x302, 0x303, 0x304, 0x305, 0x306].map(demoId) as [string, string, string, string, string, string];
const EVA_CARD = '2000000000031';

let cluster: Cluster;
const headers = new Map<string, Record<string, string>>();
let bills = 0;

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['north', 'south'] });
  await Promise.all(cluster.runningStores().map((store) => cluster.waitBootstrapped(store)));
  for (const node of cluster.nodes) headers.set(node.name, await posLogin(node));
}, 90_000);
afterAll(() => cluster?.close());

async function buy(node: NodeProcess, products: string[], card?: string): Promise<void> {
  bills += 1;
  const items = products.map((product, index) => ({
    plu_ids: [{ list_code: 'GLOBAL', code: demoProductCode(product) }],
    quantity: 1,
    price: 40,
    paid_amount: 40,
    bill_item_id: index + 1,
  }));
  const response = await call('POST', `${node.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: headers.get(node.name),
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: card,
      bill: { bill_id: `${node.name}-${bills}`, payment_time: new Date().toISOString(), total_price: String(40 * items.length), bill_items: items },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

async function recommended(node: NodeProcess, path: string, query: string): Promise<string[]> {
  const response = await call('GET', `${node.api('enterprise')}/recommendation-engine/${path}?${query}`, { headers: headers.get(node.name) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.recommended_products_list as string[];
}

const evaFits = (node: NodeProcess, products: string[]) =>
  recommended(node, 'product/actions/eliminate', `customer_id=${DEMO_IDS.customerEva}&product_id_list=${products.join(',')}`);
const withFilterCoffee = (node: NodeProcess) =>
  recommended(node, 'shopping-cart/actions/order', `cart_product_ids=${F}&product_id_list=${C},${N},${S}`);

describe('the recommendation model across nodes', () => {
  it('purchases made at one store reach the hub, whose model rows replicate to the other store, which answers from them', async () => {
    const [north, south] = [cluster.store('north'), cluster.store('south')];
    expect(await evaFits(south, [E, S, N, C])).toEqual([]);
    // No pairing links filter coffee with the bakery yet: order falls back to best sellers (C and N 3 bills each, S 1).
    expect(await withFilterCoffee(south)).toEqual([C, N, S]);

    for (let i = 0; i < 2; i += 1) await buy(north, [S, N], EVA_CARD);
    for (let i = 0; i < 3; i += 1) await buy(north, [F, N]);

    // Eva bought S and N in every bill; a cinnamon roll sells more, so it leads the tie.
    await waitFor("south to answer from the hub's model", async () => (await evaFits(south, [E, S, N, C])).join() === [N, S].join() || undefined, {
      timeoutMs: 45_000,
      intervalMs: 250,
    });
    // F and N now share three bills of fourteen, more than chance: N comes first.
    expect(await withFilterCoffee(south)).toEqual([N, C, S]);

    const { checksums } = await cluster.waitConverged();
    expect(checksums.recommendation_customers!.rows).toBeGreaterThan(0);
    const evaRow = (node: NodeProcess) =>
      node.read((db) => db.prepare('SELECT hlc, affinities FROM recommendation_customers WHERE id = ?').get(DEMO_IDS.customerEva));
    expect(evaRow(south)).toEqual(evaRow(cluster.hub));
    // Published in the short form (profile-keys.ts): 19 characters a key, read back to S and N.
    const published = (JSON.parse((evaRow(cluster.hub) as { affinities: string }).affinities) as [string, number][]).map(([key]) => key);
    expect(
      published.every((key) => /^[PGBS][\w-]{18}$/.test(key)),
      published.join(),
    ).toBe(true);
    expect(published.map(builderKey)).toEqual(expect.arrayContaining([`p:${S}`, `p:${N}`]));
    // The hub counted the bills; the stores only hold what it published.
    expect(cluster.hub.count('SELECT count(*) AS n FROM recommendation_bills')).toBe(14);
    for (const store of [north, south]) expect(store.count('SELECT count(*) AS n FROM recommendation_bills'), store.name).toBe(0);
  }, 90_000);

  it("a store's own purchase counts in its answers at once, with the hub down, and once when the hub has it", async () => {
    const south = cluster.store('south');
    await cluster.waitConverged();
    await cluster.hub.stop();
    try {
      for (let i = 0; i < 2; i += 1) await buy(south, [C], EVA_CARD);
      expect(south.peekStatus().outbox.pending).toBeGreaterThanOrEqual(2);
      // Eva's bills: S+N twice, C twice — shares of 1/2 each. S also draws on its pairing
      // with N, so it stays ahead of C; counting the two C bills twice would put C first.
      expect(await evaFits(south, [E, C, S])).toEqual([S, C, E]);
    } finally {
      await cluster.hub.start();
    }
    await cluster.waitConverged();
    const southNode = south.read((db) => (db.prepare("SELECT value FROM meta WHERE key = 'node_id'").get() as { value: string }).value);
    await waitFor("the hub's watermark for south to cover its purchases", () =>
      south.read((db) => db.prepare('SELECT covered_hlc FROM recommendation_coverage WHERE id = ?').get(southNode) !== undefined),
    );
    await cluster.waitConverged();
    expect(await evaFits(south, [E, C, S])).toEqual([S, C, E]);
    expect(await evaFits(cluster.hub, [E, C, S])).toEqual([S, C, E]);
  }, 90_000);
});
