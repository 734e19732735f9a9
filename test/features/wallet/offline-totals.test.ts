/**
 * The wallet's overviews at a store with a hub answer the same totals whether the hub answers
 * or not (README, "What each node keeps"): online the store asks the hub, which sums every
 * record; offline it reads the customer's state, which carries the sums of the records up to
 * its horizon, its tails, and the store's own facts since. Jana buys, redeems points and moves
 * credit at both stores of a hub; store 0 then loses its hub and sells once more. The points
 * expiring are read from the same fold, the other store's collections among them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { SOURCE_HEADER } from '../../../src/http/history-reads.js';
import { sellToJana, startInProcessCluster, type InProcessCluster, type InProcessStore } from '../../support/in-process-cluster.js';
import { call, demoPosLogin, type TestServer } from '../../support/server.js';

const JANA = DEMO_IDS.customerJana;
/** 2 bags of espresso beans, 200 CZK: 20 points for the money and 5 a bag. */
const EARNED = 30;

let cluster: InProcessCluster;
let here: InProcessStore;
let there: InProcessStore;
let hubAuth: Record<string, string>;

async function act(store: InProcessStore, action: string, amount: number): Promise<void> {
  const path = action.endsWith('points') ? 'points' : 'credits';
  const done = await call('POST', `${store.server.api('enterprise')}/${path}/actions/${action}`, {
    headers: store.auth,
    body: { customer_id: JANA, amount },
  });
  expect(done.status, JSON.stringify(done.body)).toBeLessThan(300);
}

async function overviews(server: TestServer, auth: Record<string, string>, query = '') {
  const read = async (action: string) => {
    const answer = await call('GET', `${server.api('enterprise')}/wallet/actions/${action}?customer_id=${JANA}${query}`, { headers: auth });
    expect(answer.status, action).toBe(200);
    return { data: answer.body.data, source: answer.headers.get(SOURCE_HEADER) };
  };
  const points = await read('points-overview');
  const credits = await read('credits-overview');
  return { points: points.data, credits: credits.data, sources: [points.source, credits.source] };
}

beforeAll(async () => {
  cluster = await startInProcessCluster();
  [here, there] = cluster.stores as [InProcessStore, InProcessStore];
  hubAuth = await demoPosLogin(cluster.hub);
  await sellToJana(there, 'totals-there');
  await act(there, 'reduce-points', 12);
  await act(there, 'deposit-credits', 40);
  expect((await cluster.round(there)).ok).toBe(true);
  await sellToJana(here, 'totals-here');
  await act(here, 'reduce-points', 7);
  await act(here, 'reduce-credits', 15);
  expect((await cluster.round(here)).ok).toBe(true);
});
afterAll(() => cluster?.close());

describe("a store's wallet overviews with its hub up and down", () => {
  it("answer the hub's earned, redeemed and available points and credit, and offline add the store's own later sales", async () => {
    const atHub = await overviews(cluster.hub, hubAuth);
    expect(atHub.points.redeemed_points).toBeGreaterThanOrEqual(12 + 7);
    expect(atHub.credits.earned_credits).toBeGreaterThanOrEqual(40);
    const online = await overviews(here.server, here.auth);
    expect(online.sources).toEqual(['hub', 'hub']);
    expect([online.points, online.credits]).toEqual([atHub.points, atHub.credits]);

    await cluster.stopHub();
    const offline = await overviews(here.server, here.auth);
    expect(offline.sources).toEqual(['local', 'local']);
    expect([offline.points, offline.credits]).toEqual([atHub.points, atHub.credits]);

    await sellToJana(here, 'totals-offline');
    const later = await overviews(here.server, here.auth);
    expect(later.points).toEqual({
      earned_points: atHub.points.earned_points + EARNED,
      redeemed_points: atHub.points.redeemed_points,
      available_points: atHub.points.available_points + EARNED,
    });
  });

  it('offline, leave out the sums of an interval, which facts of other stores may fall in, and still answer the balances', async () => {
    await cluster.stopHub();
    const interval = await overviews(here.server, here.auth, '&date_from=2020-01-01');
    const whole = await overviews(here.server, here.auth);
    expect(interval.sources).toEqual(['local', 'local']);
    expect(interval.points).toEqual({ available_points: whole.points.available_points });
    expect(interval.credits).toEqual({ available_credits: whole.credits.available_credits });
  });

  it("offline, answer the hub's expiring points: the state's lots, other stores' collections among them", async () => {
    const expiring = async (server: TestServer, auth: Record<string, string>) => {
      const answer = await call('GET', `${server.api('enterprise')}/wallet/actions/points-expiration-overview?customer_id=${JANA}`, {
        headers: auth,
      });
      expect(answer.status).toBe(200);
      return { data: answer.body.data, source: answer.headers.get(SOURCE_HEADER) };
    };
    await cluster.restartHub();
    expect((await cluster.round(here)).ok).toBe(true);
    const atHub = await expiring(cluster.hub, hubAuth);
    expect(atHub.data.next_amount).toBeGreaterThan(0);
    await cluster.stopHub();
    const offline = await expiring(here.server, here.auth);
    expect(offline.source).toBe('local');
    expect(offline.data).toEqual(atHub.data);
  });
});
