/**
 * Read-your-writes at a store with a hub, real processes: right after a till's send-purchase,
 * the store's points overview, `GET /purchases` and `GET /points` count the bill — from the
 * hub once the store's agent has pushed it (a history read waits for that, within
 * `sync.history_timeout_ms`), and from the store's own data while the hub is down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { SOURCE_HEADER } from '../../src/http/history-reads.js';
import { Cluster, posLogin, type StoreProcess } from '../support/cluster.js';
import { call } from '../support/server.js';

const JANA = DEMO_IDS.customerJana;
const JANA_CARD = '2000000000017';
/** 2 bags of espresso beans, 200 CZK: 20 points for the money and 5 a bag, 30. */
const EARNED = 30;
/**
 * Longer than the default second, so that a loaded machine's slow push still reaches the hub
 * in time: the test is of where the reads are answered from, not of how fast.
 */
const HISTORY_TIMEOUT_MS = 10_000;

let cluster: Cluster;
let prague: StoreProcess;
let pos: Record<string, string>;

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['prague'], env: { LOYALTYD_SYNC__HISTORY_TIMEOUT_MS: String(HISTORY_TIMEOUT_MS) } });
  prague = cluster.store('prague');
  await cluster.waitBootstrapped(prague);
  pos = await posLogin(prague);
});

afterAll(async () => {
  await cluster?.close();
});

async function sell(billId: string): Promise<string> {
  const bill = {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: new Date().toISOString(),
    currency_id: 'CZK',
    total_price: '200',
    bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 2, price: 100, paid_amount: 200, bill_item_id: 1 }],
  };
  const sent = await call('POST', `${prague.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: pos,
    body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: JANA_CARD, bill },
  });
  expect(sent.status).toBe(201);
  return sent.body.data.purchase_id as string;
}

/** The three reads a till makes after a sale, each with where it was answered from. */
async function reads() {
  const read = async (path: string) => {
    const response = await call('GET', `${prague.api('enterprise')}${path}`, { headers: pos });
    expect(response.status, path).toBe(200);
    return { body: response.body.data, source: response.headers.get(SOURCE_HEADER) };
  };
  return {
    overview: await read(`/wallet/actions/points-overview?customer_id=${JANA}`),
    purchases: await read(`/purchases?customer_id=${JANA}&count=1000`),
    points: await read(`/points?customer_id=${JANA}&count=1000`),
  };
}

const purchaseIds = (answer: { body: { purchases: { purchase_id: string }[] } }) => answer.body.purchases.map((purchase) => purchase.purchase_id);
const pointIds = (answer: { body: { points: { point_id: string }[] } }) => answer.body.points.map((point) => point.point_id);

describe('read-your-writes at a store with a hub', () => {
  it('with the hub up: right after send-purchase the overview, the purchases and the points come from the hub and count the bill', async () => {
    const before = await reads();
    expect(before.overview.source).toBe('hub');
    const purchaseId = await sell('ryw-up');
    const after = await reads();
    for (const answer of Object.values(after)) expect(answer.source).toBe('hub');
    expect(after.overview.body.available_points).toBe(before.overview.body.available_points + EARNED);
    expect(purchaseIds(after.purchases)).toContain(purchaseId);
    const newPoints = after.points.body.points.filter((point: { point_id: string }) => !pointIds(before.points).includes(point.point_id));
    expect(newPoints).toMatchObject([{ assigned_points: EARNED }]);
  });

  it('with the hub down: right after send-purchase the same reads come from the store and count the bill', async () => {
    const before = await reads();
    await cluster.hub.stop();
    const purchaseId = await sell('ryw-down');
    const after = await reads();
    for (const answer of Object.values(after)) expect(answer.source).toBe('local');
    expect(after.overview.body.available_points).toBe(before.overview.body.available_points + EARNED);
    expect(purchaseIds(after.purchases)).toContain(purchaseId);
    const newPoints = after.points.body.points.filter((point: { point_id: string }) => !pointIds(before.points).includes(point.point_id));
    expect(newPoints).toMatchObject([{ assigned_points: EARNED }]);
  });
});
