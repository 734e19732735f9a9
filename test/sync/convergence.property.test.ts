/**
 * Convergence, as a property (DESIGN §5 "Authority", "Clocks", "Ownership and conflicts"): a
 * hub and three stores, one of them with its clock ten minutes ahead of the others, past the
 * hub's tolerance (`sync.max_clock_skew_seconds`, 300 s). Each run is a random interleaving of
 * points given and taken by hand and bills earning points at the stores, sync rounds, clocks
 * moving on and the hub settling its customer states; one store pushes nothing for a while,
 * and one hostile command is pushed by hand with a store's node credentials. Once every store
 * has pushed and pulled everything, every node holds, for every customer, the balance of one
 * fold of the honest facts: the demo's opening points and what the stores' API accepted. The
 * hostile command counts nowhere. Real nodes, HTTP between them, rounds driven by the test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/db/migrate.js';
import { DEMO_IDS, demoCredentials } from '../../src/demo/demo.js';
import { settleStates } from '../../src/loyalty/state-settling.js';
import { runRound, type RoundOutcome } from '../../src/sync/store/agent.js';
import { PROTOCOL_VERSION } from '../../src/sync/protocol/protocol.js';
import { foldedPoints } from '../support/ledger-oracle.js';
import { basic, call, TestClock } from '../support/server.js';
import { hex } from '../support/ids.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../support/in-process-cluster.js';

const STORES = 3;
/** The store whose clock runs ten minutes ahead of the hub's and the other stores'. */
const AHEAD_STORE = 2;
const AHEAD_MS = 600_000;
/** Every run starts at the same moment, so that a seed replays the same days and stamps. */
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const CUSTOMERS = [DEMO_IDS.customerJana, DEMO_IDS.customerPetr, DEMO_IDS.customerEva] as const;
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;
const UNKNOWN_USER = 'de00000000000000000000ffff';
/**
 * A bill of espresso beans earns 10 points per 100 CZK bag (1 point per 10 CZK) and 5 points
 * per bag (the beans' own rule), in config/program.example.json; they expire in a year.
 */
const POINTS_PER_BAG = 15;
/**
 * At most 20 steps of at most 50 points keep what a node gives or takes by hand of a customer
 * in a day within `authority.manual_points_per_customer_day` (1000): no honest command is held.
 */
const MAX_STEPS = 20;
const MAX_ASSIGN = 40;
const MAX_REDUCE = 50;
/** Passes of a round at every store that bring them all to rest. */
const PASSES_TO_REST = 6;

type CustomerId = (typeof CUSTOMERS)[number];

type Step =
  | { kind: 'assign'; store: number; customer: CustomerId; points: number }
  /** Takes `share` percent of the balance the store knows, at most MAX_REDUCE points, at least one. */
  | { kind: 'reduce'; store: number; customer: CustomerId; share: number }
  | { kind: 'sell'; store: number; bags: number }
  | { kind: 'round'; store: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'settle' };

type HostileShape = 'rows' | 'billion' | 'stranger';

interface Scenario {
  steps: Step[];
  /** A store that runs no round before step `until`: its pushes come late. */
  late: { store: number; until: number };
  /** Pushed by hand before step `at` (after the last when past it), with the node credentials of store `store`. */
  hostile: { shape: HostileShape; store: number; customer: CustomerId; at: number };
}

type Store = InProcessStore;

const storeIndex = fc.integer({ min: 0, max: STORES - 1 });
const customer = fc.constantFrom(...CUSTOMERS);
/** Reductions go mostly to the customers with fewer points than a reduction may take, so that two stores spend the same points. */
const spender = fc.oneof(
  { weight: 2, arbitrary: fc.constant(DEMO_IDS.customerPetr) },
  { weight: 2, arbitrary: fc.constant(DEMO_IDS.customerEva) },
  { weight: 1, arbitrary: fc.constant(DEMO_IDS.customerJana) },
);
/** Half the reductions take all the store knows (up to MAX_REDUCE). */
const share = fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('assign' as const), store: storeIndex, customer, points: fc.integer({ min: 1, max: MAX_ASSIGN }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reduce' as const), store: storeIndex, customer: spender, share }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sell' as const), store: storeIndex, bags: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('round' as const), store: storeIndex }) },
  // Up to 15 minutes a step: 20 steps stay within a POS login's 7 hours and one day.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1_000, max: 15 * 60_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'settle' as const }) },
);
const scenario: fc.Arbitrary<Scenario> = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: MAX_STEPS, size: 'max' }),
  late: fc.record({ store: storeIndex, until: fc.nat({ max: MAX_STEPS }) }),
  hostile: fc.record({
    shape: fc.constantFrom<HostileShape>('rows', 'billion', 'stranger'),
    store: storeIndex,
    customer,
    at: fc.nat({ max: MAX_STEPS }),
  }),
});

/** Three stores, one with its clock ahead of the others. */
const startCluster = () =>
  startInProcessCluster({
    stores: STORES,
    hubClock: new TestClock(T0),
    storeClock: (index) => new TestClock(T0 + (index === AHEAD_STORE ? AHEAD_MS : 0)),
  });

/**
 * A round at a store: an honest store's commands are all applied, none rejected or held, and
 * the hub brings the stamps of the store ahead back to its own time, so that none of its point
 * records is stamped past its tolerance.
 */
async function round({ hub }: InProcessCluster, store: Store): Promise<RoundOutcome> {
  const outcome = await runRound(store.sync, store.server.clock.now);
  expect(outcome, `a round at ${store.name}`).toMatchObject({ ok: true, rejected: 0, held: 0 });
  const future = hex(hub.clock.now() + hub.config.sync.max_clock_skew_seconds * 1000 + 1, 12);
  expect(
    hub.app.node.db.prepare('SELECT count(*) FROM point_records WHERE hlc >= ?').pluck().get(future),
    'point records at the hub stamped from the future',
  ).toBe(0);
  return outcome;
}

/** The hostile command of a shape, stamped at the hub's time in the store's own origin, and the id of the record it would make. */
function hostileCommand(cluster: InProcessCluster, hostile: Scenario['hostile']) {
  const now = cluster.hub.clock.now();
  const stamp = `${hex(now, 12)}-0000-${cluster.stores[hostile.store]!.server.app.node.identity.nodeId}`;
  const recordId = `${hex(now, 12)}${hex(0xbad, 14)}`;
  const command = { seq: 1, command_id: `hostile-${hostile.shape}`, kind: 'points.assign', hlc: stamp };
  const assign = (amount: number, principal: Record<string, unknown>) => ({
    ...command,
    operation: {
      call: { iface: 'enterprise', input: { params: {}, query: {}, body: { customer_id: hostile.customer, amount } }, principal },
      as_of: now,
      ids: [recordId],
    },
  });
  switch (hostile.shape) {
    case 'rows': {
      const at = new Date(now).toISOString();
      const row = {
        id: recordId,
        customer_id: hostile.customer,
        kind: 'collection',
        points_milli: 1e12,
        point_type_id: 'manual',
        partner_id: null,
        valid_to: null,
        purchase_id: null,
        linked_point_id: null,
        created_at: at,
        state: 1,
        hlc: stamp,
        last_change: at,
      };
      return {
        recordId,
        command: {
          ...command,
          operation: { ids: [recordId] },
          changes: [{ entity: 'point_records', entity_id: recordId, op: 'insert', hlc: stamp, row }],
        },
      };
    }
    case 'billion':
      return { recordId, command: assign(1e9, { kind: 'user', userId: POS_USER, scheme: 'bearer' }) };
    case 'stranger':
      return { recordId, command: assign(50, { kind: 'user', userId: UNKNOWN_USER, scheme: 'bearer' }) };
  }
}

/**
 * What the hub answers each hostile shape: a push carrying rows is refused whole (409, nothing of
 * it applied), a caller it does not know is rejected, a billion points held.
 */
const HOSTILE_RESULT: Record<Exclude<HostileShape, 'rows'>, { status: string; reason: unknown }> = {
  billion: { status: 'held', reason: expect.stringMatching(/^\d+ points given or taken by hand for customer/) },
  stranger: { status: 'rejected', reason: expect.stringContaining('its caller') },
};

/** Pushes the hostile command with the store's node credentials, in a generation of its own; returns the id of the record it would make. */
async function pushHostile(cluster: InProcessCluster, hostile: Scenario['hostile']): Promise<string> {
  const { credentials } = cluster.stores[hostile.store]!;
  const { recordId, command } = hostileCommand(cluster, hostile);
  const pushed = await call('POST', `${cluster.hub.url}/sync/v1/commands`, {
    headers: {
      ...basic(credentials.node_name, credentials.node_secret),
      'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
      'x-loyaltyd-schema': String(schemaVersion()),
    },
    body: { generation: 'hostile', commands: [command] },
  });
  if (hostile.shape === 'rows') {
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(409);
    expect(pushed.body.error.exception).toBe('sync_rows_refused_exception');
    return recordId;
  }
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  expect(pushed.body.results).toEqual([expect.objectContaining(HOSTILE_RESULT[hostile.shape])]);
  return recordId;
}

/** Runs one step; adds to `honest` (points in thousandths, by customer) what the API accepted. */
async function perform(cluster: InProcessCluster, step: Step, honest: Map<string, number>, bills: { count: number }): Promise<void> {
  const add = (customerId: string, milli: number) => honest.set(customerId, (honest.get(customerId) ?? 0) + milli);
  switch (step.kind) {
    case 'assign': {
      const store = cluster.stores[step.store]!;
      const answer = await call('POST', `${store.server.api('enterprise')}/points/actions/assign-points`, {
        headers: store.auth,
        body: { customer_id: step.customer, amount: step.points },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(204);
      add(step.customer, step.points * 1000);
      return;
    }
    case 'reduce': {
      const store = cluster.stores[step.store]!;
      // What the store knows may be spent at another store too before either pushes: a debt.
      const known = store.server.app.node.balances.balancesAt(step.customer, store.server.clock.now()).pointsMilli / 1000;
      const points = Math.min(MAX_REDUCE, Math.max(1, Math.floor((known * step.share) / 100)));
      const answer = await call('POST', `${store.server.api('enterprise')}/points/actions/reduce-points`, {
        headers: store.auth,
        body: { customer_id: step.customer, amount: points },
      });
      if (answer.status === 400) {
        // Beyond the balance the store knows: nothing happened.
        expect(answer.body.error.error_data.invalid_params[0]).toMatchObject({ reason: 'not_enough_points_for_payment' });
        return;
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(204);
      add(step.customer, -points * 1000);
      return;
    }
    case 'sell': {
      const store = cluster.stores[step.store]!;
      bills.count += 1;
      const billId = `S${step.store}-${bills.count}`;
      const beans = {
        plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }],
        quantity: step.bags,
        price: 100,
        paid_amount: 100 * step.bags,
        bill_item_id: 1,
      };
      const paidAt = new Date(store.server.clock.now()).toISOString().slice(0, 19).replace('T', ' ');
      const answer = await call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: store.auth,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1 + step.store,
          card_number: demoCredentials.customer_card,
          bill: { bill_id: billId, payment_time: paidAt, total_price: 100 * step.bags, bill_items: [beans], payment_recap: {} },
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      add(DEMO_IDS.customerJana, step.bags * POINTS_PER_BAG * 1000);
      return;
    }
    case 'round':
      await round(cluster, cluster.stores[step.store]!);
      return;
    case 'advance':
      for (const server of [cluster.hub, ...cluster.stores.map((store) => store.server)]) server.clock.advance(step.ms);
      return;
    case 'settle':
      await settleStates(cluster.hub.app.node.states!, cluster.hub.app.node.writes);
      return;
  }
}

const pendingCommands = (store: Store) =>
  store.server.app.node.db.prepare("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get() as number;

/** Rounds at every store until each has pushed its outbox and a pass pulls nothing new. */
async function syncToRest(cluster: InProcessCluster): Promise<void> {
  for (let pass = 0; pass < PASSES_TO_REST; pass += 1) {
    let pulled = 0;
    for (const store of cluster.stores) pulled += (await round(cluster, store)).pulled;
    if (pulled === 0 && cluster.stores.every((store) => pendingCommands(store) === 0)) return;
  }
  for (const store of cluster.stores) expect(pendingCommands(store), `commands ${store.name} has not pushed`).toBe(0);
}

/**
 * Every customer's points, at the hub and at every store, are the opening points and the
 * honest facts: nothing expires within a run (points live a year), so one fold of them is
 * their sum. The hub's records fold to the same (test/support/ledger-oracle.ts), and every
 * store reads the hub's balances, credit included.
 */
function expectConverged({ hub, stores }: InProcessCluster, opening: ReadonlyMap<string, number>, honest: ReadonlyMap<string, number>): void {
  for (const customerId of CUSTOMERS) {
    const expected = opening.get(customerId)! + (honest.get(customerId) ?? 0);
    expect(foldedPoints(hub.app.node.db, customerId, hub.clock.now()), `${customerId} folded from the hub's records`).toBe(expected);
    const atHub = hub.app.node.balances.balancesAt(customerId, hub.clock.now());
    expect(atHub.pointsMilli, `${customerId} at the hub`).toBe(expected);
    for (const store of stores) {
      expect(store.server.app.node.balances.balancesAt(customerId, store.server.clock.now()), `${customerId} at ${store.name}`).toEqual(atHub);
    }
  }
}

async function runScenario({ steps, late, hostile }: Scenario): Promise<void> {
  const cluster = await startCluster();
  try {
    const { hub, stores } = cluster;
    const opening = new Map(CUSTOMERS.map((customerId) => [customerId, foldedPoints(hub.app.node.db, customerId, hub.clock.now())]));
    const honest = new Map<string, number>();
    const bills = { count: 0 };
    let hostileRecord: string | undefined;
    for (const [index, next] of steps.entries()) {
      if (index === hostile.at) hostileRecord = await pushHostile(cluster, hostile);
      if (next.kind === 'round' && next.store === late.store && index < late.until) continue;
      await perform(cluster, next, honest, bills);
    }
    hostileRecord ??= await pushHostile(cluster, hostile);
    await syncToRest(cluster);
    expectConverged(cluster, opening, honest);
    // Once the hub has settled its states, the lots they hold fold to the same balances.
    await settleStates(hub.app.node.states!, hub.app.node.writes);
    await syncToRest(cluster);
    expectConverged(cluster, opening, honest);

    for (const server of [hub, ...stores.map((store) => store.server)]) {
      expect(server.app.node.db.prepare('SELECT count(*) FROM point_records WHERE id = ?').pluck().get(hostileRecord), 'the hostile record').toBe(0);
    }
    expect(hub.app.held!.list().map((command) => command.command_id)).toEqual(hostile.shape === 'billion' ? ['hostile-billion'] : []);
  } finally {
    await cluster.close();
  }
}

describe('three stores, one clock ahead, late pushes and a hostile command', () => {
  it('converge to the balances of one fold of the honest facts on every node, the hostile command counted nowhere', async () => {
    // A run starts a hub and three stores (about two seconds); the time limit bounds shrinking, which reports what it reached.
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: 15, interruptAfterTimeLimit: 240_000 });
  }, 300_000);
});
