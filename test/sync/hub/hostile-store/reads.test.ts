/**
 * Reads a hostile store makes of the hub (DESIGN §5 "Reads are the node's"): the original bill
 * a return names is served only for a store the node serves, without its customer, and a
 * limited number a day per node; an honest store's return of a bill read that way is still
 * taken back in full, by the hub, which knows the customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, demoCredentials } from '../../../../src/demo/demo.js';
import { call, type TestServer } from '../../../support/server.js';
import { nodeHeaders, startChain, type Chain, type NodeCredentials, honestLogin } from './crafted-commands.js';

const READS_A_DAY = 3;
/** The demo card's customer. */
const JANA = DEMO_IDS.customerJana;

let chain: Chain;
let reader: NodeCredentials;

const sell = async (billId: string, bill: Record<string, unknown> = {}) =>
  call('POST', `${chain.honest.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: await honestLogin(chain),
    body: {
      store_id: DEMO_IDS.storeAirport,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      bill: {
        bill_id: billId,
        bill_number: 'R-1',
        payment_time: '2026-11-20 10:00:00',
        total_price: 300,
        bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 3, price: 100, paid_amount: 300, bill_item_id: 1 }],
        ...bill,
      },
    },
  });
const readBill = (node: NodeCredentials, storeId: string, billNumber: string) =>
  call('GET', `${chain.hub.url}/sync/v1/original-bill?store_id=${storeId}&bill_number=${billNumber}`, { headers: nodeHeaders(node) });
const balance = (server: TestServer) => server.app.node.balances.balancesAt(JANA, Date.now());

beforeAll(async () => {
  chain = await startChain({ hubConfig: { 'sync_limits.original_bills_per_node_day': READS_A_DAY }, hostileStores: [DEMO_IDS.storeCentral] });
  // A second node of the airport store, as a hostile one would be.
  reader = chain.hub.app.services.nodes.add('store-airport-reader', [DEMO_IDS.storeAirport]);
});

afterAll(async () => {
  await chain?.close();
});

describe("a hostile store reading another store's bills", () => {
  it('is refused the bill of a store it does not serve, and served one of its own store without its customer, a few a day', async () => {
    const before = balance(chain.hub);
    expect((await sell('R-1')).status).toBe(201);
    expect(await chain.round()).toMatchObject({ ok: true, pushed: 1, rejected: 0, held: 0 });

    const elsewhere = await readBill(chain.hostile, DEMO_IDS.storeAirport, 'R-1');
    expect(elsewhere.status).toBe(403);

    const served = await readBill(reader, DEMO_IDS.storeAirport, 'R-1');
    expect(served.status).toBe(200);
    const text = JSON.stringify(served.body);
    expect(text).not.toContain(JANA);
    expect(text).not.toContain('customer_id');
    expect(text).not.toContain('owner');
    expect(text).not.toContain(demoCredentials.customer_card);
    expect(served.body).toMatchObject({ purchase: { bill_number: 'R-1', total_price_minor: 30000 }, cancellation: null });
    expect(served.body.points.length).toBeGreaterThan(0);

    // Found or not, each read counts; past the day's reads, 429 until the next day.
    for (let read = 1; read < READS_A_DAY; read += 1) expect((await readBill(reader, DEMO_IDS.storeAirport, `X-${read}`)).status).toBe(404);
    const past = await readBill(reader, DEMO_IDS.storeAirport, 'R-1');
    expect(past.status).toBe(429);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(past.headers.get('retry-after'))).toBeLessThanOrEqual(25 * 3600);

    // The honest store's return reads the bill without its customer; the hub takes its points back.
    expect(balance(chain.hub).pointsMilli).toBeGreaterThan(before.pointsMilli);
    expect((await sell('R-1-return', { canceled: true, total_price: -300 })).status).toBe(201);
    expect(await chain.round()).toMatchObject({ ok: true, pushed: 1, rejected: 0, held: 0 });
    expect(await chain.round()).toMatchObject({ ok: true });
    expect(balance(chain.hub)).toEqual(before);
    expect(balance(chain.honest)).toEqual(before);
  });
});
