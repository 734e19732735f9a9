/**
 * Sync acceptance, real processes: a store whose wall clock runs ten minutes ahead of the
 * hub's — its daemon runs under libfaketime, as an in-store server after a bad NTP step —
 * past the hub's tolerance (`sync.max_clock_skew_seconds`, 300 s). The hub applies its
 * commands at the hub's time, never rejects them; the store swaps its rows of each command
 * for the hub's, and nothing is lost on either side (DESIGN §5 "Authority", "Clocks").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../../src/demo/demo.js';
import { BalanceReader } from '../../../src/loyalty/balance-reader.js';
import { Cluster, posLogin, type NodeProcess } from '../../support/cluster.js';
import { libfaketime } from '../../support/faketime.js';
import { waitFor } from '../../support/wait.js';
import { call } from '../../support/server.js';
import { createCustomer, inParallel } from '../../support/sync-writes.js';
import { CAPPUCCINO_REWARD } from '../../support/vouchers-fixtures.js';

const FAST = 'fast';
const AHEAD_MS = 600_000;
const BILLS = 100;
const VOUCHER_CODE = 'FAST-CAPPU';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: [FAST, 'other'],
    storeSetup: {
      // Only the wall clock is wrong, as after a bad NTP step; the monotonic clock the
      // daemon's timers run on is left alone.
      [FAST]: { serves: [DEMO_IDS.storeCentral], env: { LD_PRELOAD: libfaketime(), FAKETIME: '+10m', FAKETIME_DONT_FAKE_MONOTONIC: '1' } },
    },
  });
  for (const store of cluster.runningStores()) await cluster.waitBootstrapped(store);
});

afterAll(async () => {
  await cluster?.close();
});

const beans = (bags: number) => ({
  plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }],
  plu_name: 'Espresso beans',
  quantity: bags,
  price: 100,
  paid_amount: 100 * bags,
  bill_item_id: 1,
  vat_rate: 12,
});
const cappuccino = (paid: number) => ({
  plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }],
  plu_name: 'Cappuccino',
  quantity: 1,
  price: 65,
  paid_amount: paid,
  bill_item_id: 1,
  vat_rate: 21,
});

/**
 * Bill `index` of Jana's at Prague Central: the first paid with her voucher, every tenth
 * from the sixth on paying 10 of her points, the others three bags of beans or a cappuccino.
 */
function billOf(index: number) {
  const billId = `FAST-${String(index).padStart(3, '0')}`;
  const common = {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: `2026-11-20 ${10 + Math.floor(index / 60)}:${String(index % 60).padStart(2, '0')}:00`,
    currency_id: 'CZK',
  };
  if (index === 0) return { ...common, total_price: '0', bill_items: [cappuccino(0)], payment_recap: { vouchers: [{ code: VOUCHER_CODE }] } };
  if (index % 10 === 5) return { ...common, total_price: '300', bill_items: [beans(3)], payment_recap: { credit_points: 10 } };
  return index % 2 === 0 ? { ...common, total_price: '300', bill_items: [beans(3)] } : { ...common, total_price: '65', bill_items: [cappuccino(65)] };
}

/** A stamp's text for a moment: 12 hex digits of ms, so that stamps compare as text. */
const stampPrefix = (ms: number) => ms.toString(16).padStart(12, '0');

interface PurchaseStamp {
  bill: string;
  id: string;
  hlc: string;
}

const fastBills = (node: NodeProcess) =>
  node.read((db) =>
    db
      .prepare<[string], PurchaseStamp>(
        "SELECT external_purchase_id AS bill, id, hlc FROM purchases WHERE store_id = ? AND external_purchase_id LIKE 'FAST-%' ORDER BY external_purchase_id, id",
      )
      .all(DEMO_IDS.storeCentral),
  );

const balancesOf = (node: NodeProcess, at: number) => node.read((db) => new BalanceReader(db).balancesAt(DEMO_IDS.customerJana, at));

describe('a store whose clock runs ten minutes ahead of the hub', () => {
  it("sells 100 bills (points, a voucher) and registers a customer: every bill is at the hub once and at the store, stamped at the hub's time; balances agree on every node; sync status shows the skew and the hub lists it", async () => {
    const fast = cluster.store(FAST);
    const other = cluster.store('other');
    // The daemon's own clock: the Date header of its answers.
    const health = await call('GET', `${fast.url}/health`);
    expect(Date.parse(health.headers.get('date')!) - Date.now()).toBeGreaterThan(AHEAD_MS - 60_000);

    const pos = await posLogin(fast);
    // Jana's 250 points buy the voucher (100); the bills then pay 10 × 10 more.
    const voucher = await call('POST', `${fast.api('enterprise')}/rewards/${CAPPUCCINO_REWARD}/actions/create-voucher`, {
      headers: pos,
      body: { customer_id: DEMO_IDS.customerJana, code: VOUCHER_CODE },
    });
    expect(voucher.status, JSON.stringify(voucher.body)).toBe(201);
    const voucherId = voucher.body.data.voucher_id as string;
    const customer = await createCustomer(fast, pos, 'Fast', 'Clock');
    const purchaseIds = new Map<string, string>();
    await inParallel(BILLS, 4, async (index) => {
      const bill = billOf(index);
      const sent = await call('POST', `${fast.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: pos,
        body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1 + (index % 4), card_number: demoCredentials.customer_card, bill },
      });
      expect(sent.status, `${bill.bill_id}: ${JSON.stringify(sent.body)}`).toBe(201);
      purchaseIds.set(bill.bill_id, sent.body.data.purchase_id as string);
    });

    await waitFor('the fast store to push every command', () => fast.peekStatus().outbox.pending === 0);
    // A hub that rejected the skewed commands would have them counted here, and the store would have taken their effects back.
    expect((await fast.syncStatus()).outbox).toMatchObject({ pending: 0, rejected: 0 });
    const { statuses } = await cluster.waitConverged({ viaCli: true });
    expect(statuses[FAST]).toMatchObject({ reachable: true, last_error: null, outbox: { pending: 0, rejected: 0 } });
    expect(statuses[FAST]!.clock_skew_ms).toBeGreaterThan(300_000);
    expect(statuses[FAST]!.clock_skew_ms).toBeLessThan(AHEAD_MS + 60_000);
    expect(statuses.other!.clock_skew_ms).toBe(0);

    // Every bill at the hub once, under the id the store gave it, and the store's rows of each are the hub's.
    const atHub = fastBills(cluster.hub);
    expect(atHub).toHaveLength(BILLS);
    expect(new Set(atHub.map((purchase) => purchase.bill)).size).toBe(BILLS);
    expect(Object.fromEntries(atHub.map((purchase) => [purchase.bill, purchase.id]))).toEqual(Object.fromEntries(purchaseIds));
    expect(fastBills(fast)).toEqual(atHub);
    expect(cluster.hub.count('SELECT count(*) AS n FROM customers WHERE id = ?', customer.id)).toBe(1);
    expect(other.count('SELECT count(*) AS n FROM customers WHERE id = ?', customer.id)).toBe(1);
    expect(cluster.hub.count('SELECT count(*) AS n FROM voucher_applications WHERE voucher_id = ?', voucherId)).toBe(1);

    // Nothing the hub holds or publishes is stamped from the store's future.
    const ahead = stampPrefix(Date.now() + 60_000);
    for (const table of ['purchases', 'point_records', 'customers', 'vouchers', 'voucher_applications', 'customer_states', 'changes']) {
      expect(cluster.hub.count(`SELECT count(*) AS n FROM ${table} WHERE hlc > ?`, ahead), `${table} at the hub stamped after ${ahead}`).toBe(0);
    }

    const nodeId = cluster.hub.read((db) => db.prepare<[string], { id: string }>('SELECT id FROM nodes WHERE name = ?').get(FAST)!.id);
    const { conflicts } = (await cluster.hub.cli(['sync', 'conflicts'])) as {
      conflicts: { kind: string; entity: string; entity_id: string; detail: { ahead_seconds: number } }[];
    };
    const skews = conflicts.filter((conflict) => conflict.kind === 'clock_skew');
    expect(skews).toEqual([expect.objectContaining({ entity: 'nodes', entity_id: nodeId })]);
    expect(skews[0]!.detail.ahead_seconds).toBeGreaterThan(300);

    // Jana's balances, each node folding what it holds: the hub every fact, the fast store its
    // own on the hub's published state, the other store the state alone. Points: 250 − 100 for
    // the voucher − 10 × 10 paid + 59 bills of beans × 45 + 40 cappuccinos × 6 = 2945. Credit:
    // 200 + 2 % of the money paid, 49 × 300 + 10 × 295 + 40 × 65 CZK = 605.
    const at = Date.now();
    for (const node of [cluster.hub, fast, other]) expect(balancesOf(node, at), node.name).toEqual({ pointsMilli: 2_945_000, creditMinor: 60_500 });
  }, 60_000);
});
