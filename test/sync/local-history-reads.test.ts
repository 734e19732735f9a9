/**
 * What a store's history reads answer while its hub is down (README, "What each node keeps"):
 * `x-loyaltyd-source: local`, a list of this store's own records alone, and the points overview's
 * `available_points` still the customer's balance — the one to read, never a sum of the list.
 * Jana buys at store 1, then at store 0, both synced; then store 0 loses its hub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { SOURCE_HEADER } from '../../src/http/history-reads.js';
import { sellToJana, startInProcessCluster, type InProcessCluster, type InProcessStore } from '../support/in-process-cluster.js';
import { call } from '../support/server.js';

const JANA = DEMO_IDS.customerJana;
/** 2 bags of espresso beans, 200 CZK: 20 points for the money and 5 a bag, 30. */
const EARNED = 30;

let cluster: InProcessCluster;
let here: InProcessStore;
let there: InProcessStore;
/** The purchase store 0 sold, and the one store 1 sold. */
let soldHere: string;
let soldThere: string;

async function read(path: string) {
  const response = await call('GET', `${here.server.api('enterprise')}${path}`, { headers: here.auth });
  expect(response.status, path).toBe(200);
  return { data: response.body.data, source: response.headers.get(SOURCE_HEADER) };
}

const purchasesOf = (answer: { data: { purchases: { purchase_id: string }[] } }) => answer.data.purchases.map((purchase) => purchase.purchase_id);

beforeAll(async () => {
  cluster = await startInProcessCluster();
  [here, there] = cluster.stores as [InProcessStore, InProcessStore];
  soldThere = await sellToJana(there, 'local-there');
  expect((await cluster.round(there)).ok).toBe(true);
  soldHere = await sellToJana(here, 'local-here');
  expect((await cluster.round(here)).ok).toBe(true);
});
afterAll(() => cluster?.close());

describe('history reads at a store whose hub is down', () => {
  it("say they are local, list the store's own records alone, and the overview's available_points is still the balance", async () => {
    const fromHub = {
      purchases: await read(`/purchases?customer_id=${JANA}&count=1000`),
      points: await read(`/points?customer_id=${JANA}&count=1000`),
      overview: await read(`/wallet/actions/points-overview?customer_id=${JANA}`),
    };
    expect([fromHub.purchases.source, fromHub.points.source, fromHub.overview.source]).toEqual(['hub', 'hub', 'hub']);
    expect(purchasesOf(fromHub.purchases)).toEqual(expect.arrayContaining([soldHere, soldThere]));

    await cluster.stopHub();
    const purchases = await read(`/purchases?customer_id=${JANA}&count=1000`);
    const points = await read(`/points?customer_id=${JANA}&count=1000`);
    const overview = await read(`/wallet/actions/points-overview?customer_id=${JANA}`);
    expect([purchases.source, points.source, overview.source]).toEqual(['local', 'local', 'local']);
    expect(purchasesOf(purchases)).toEqual([soldHere]);
    expect(purchases.data.total_items).toBe(1);
    expect(points.data.points).toMatchObject([{ assigned_points: EARNED }]);
    expect(fromHub.points.data.total_items).toBeGreaterThan(points.data.total_items);
    const listed = points.data.points.reduce((sum: number, point: { available_points: number }) => sum + point.available_points, 0);
    expect(listed).toBeLessThan(fromHub.overview.data.available_points);
    expect(overview.data.available_points).toBe(fromHub.overview.data.available_points);
  });
});
