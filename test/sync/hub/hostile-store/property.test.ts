/**
 * A hostile store's node, as a property (DESIGN §5 "Authority"): beside two honest stores that
 * write through their API and sync in rounds, a node with a valid secret serving Prague Central
 * pushes random operations of every kind a store performs offline, crafted straight to
 * `/sync/v1/commands`: points and credit given, taken and moved, registrations, bills with and
 * without returns, vouchers issued and used; naming its own store, another's or one made up
 * (nested in a registration too), customers that exist, that it registered or that it made up,
 * amounts small and huge, stamps in its own origins, the hub's, another node's or an honest
 * store's, behind and ahead of the hub's clock, as-of times days back and ahead, and callers
 * the hub knows and does not. The hub's node totals are small, so runs pass them. Then:
 *
 * 1. no honest command is held or rejected, and no honest store lists one as unapplied;
 * 2. every customer's points and credit at the hub are the fold of the opening records, the
 *    honest facts (their sum is what the honest stores' API accepted) and the records of the
 *    hostile commands the hub applied — no record of a held or rejected one is anywhere, at the
 *    hub or at an honest store — and every honest store reads the hub's balances;
 * 3. what the hub applied of the hostile node, summed by the day it counts on (its as-of day
 *    within the days from its last contact to the hub's today), stays within every node total
 *    and the per-customer limits on what is given or taken by hand.
 *
 * Real nodes over HTTPS in one process (test/support/in-process-cluster.ts), rounds driven by
 * the test, clocks that move only when a step moves them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_IDS, demoCredentials } from '../../../../src/demo/demo.js';
import { derivedId } from '../../../../src/core/ids.js';
import type { CreditRecordsRow as CreditRow, PointRecordsRow as PointRow } from '../../../../src/db/tables.generated.js';
import { formatTimestamp } from '../../../../src/core/time.js';
import { settleStates } from '../../../../src/loyalty/state-settling.js';
import { runRound, type RoundOutcome } from '../../../../src/sync/store/agent.js';
import { foldRecords } from '../../../support/ledger-oracle.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../../../support/in-process-cluster.js';
import { call, demoPosLogin, TestClock, type TestServer } from '../../../support/server.js';
import { demoId, hex } from '../../../support/ids.js';
import { HOSTILE_ORIGIN, nodeHeaders, POS_USER, type NodeCredentials, type PushResult } from './crafted-commands.js';

/** An evening, so that a few steps' clocks cross midnight into the next day's totals. */
const T0 = Date.UTC(2026, 10, 20, 20, 0, 0);
const DAY_MS = 86_400_000;
const MAX_STEPS = 24;
/**
 * The node totals, small enough for a run's hostile pushes to pass them, each above what an
 * honest store may write in a run: at most 24 steps of at most 40 points, 40 CZK or a bill of
 * 45 points and 6 CZK back, so an honest node stays within 960 a day of each.
 */
const NODE_DAILY = {
  points_created: 1500,
  credit_created: 1000,
  points_redeemed: 1000,
  vouchers_issued: 3,
  voucher_value: 60,
  customers_registered: 2,
  card_changes: 1,
  profile_changes: 1,
  returns_without_original: 1,
};
/** Per customer by hand (the default's 1,000 points; 600 of credit, below the node's 1,000, so both kinds of limit bind). */
const MANUAL_POINTS_PER_CUSTOMER_DAY = 1000;
const MANUAL_CREDIT_PER_CUSTOMER_DAY = 600;
const HONEST_MAX = 40;
/** A bag of espresso beans (100 CZK) earns 15 points and 2 CZK of credit back (config/program.example.json). */
const BEANS = '859000769';
const POINTS_PER_BAG = 15;
const CREDIT_BACK_PER_BAG_MINOR = 200;
const POS_SESSION_MS = 6 * 3_600_000;

const CUSTOMERS = [DEMO_IDS.customerJana, DEMO_IDS.customerPetr, DEMO_IDS.customerEva];
const JANA_VOUCHER = demoId(0x701);
const DEMO_API_USER = demoId(0x103);
const MADE_UP_STORE = `ef${hex(0x51, 24)}`;
const SECOND_ORIGIN = 'a77ac4e2';
/** The free cappuccino (100 points), the morning pastry (free of points), the airport's 50 CZK (50 points), and a reward made up. */
const REWARDS = [demoId(0x601), demoId(0x603), demoId(0x604), `ef${hex(0x601, 24)}`];
const MANUAL_KINDS = new Set(['points.assign', 'points.reduce', 'points.transfer', 'credits.deposit', 'credits.reduce', 'credits.transfer']);

type CustomerPick = { from: 'demo' | 'registered' | 'madeUp'; index: number };
type StorePick = 'own' | 'other' | 'madeUp' | 'none';
type OriginPick = 'own' | 'second' | 'hub' | 'honestNode' | 'honestOrigin';
type CallerPick = 'pos' | 'unknownUser' | 'anonymous' | 'apiUser' | 'token';

type HostileCall =
  | { kind: 'points.assign' | 'points.reduce' | 'credits.deposit' | 'credits.reduce'; customer: CustomerPick; amount: number }
  | { kind: 'points.transfer' | 'credits.transfer'; from: CustomerPick; to: CustomerPick; amount: number }
  | { kind: 'customers.create'; store: StorePick }
  | {
      kind: 'purchases.send';
      store: StorePick;
      buyer: CustomerPick | 'card' | 'none';
      billNo: number;
      items: { quantity: number; price: number; known: boolean }[];
    }
  | { kind: 'vouchers.create'; reward: number; customer: CustomerPick }
  | { kind: 'vouchers.apply'; voucher: number; store: StorePick }
  | { kind: 'tokens.create' | 'customers.delete' };

interface HostileCommand {
  call: HostileCall;
  origin: OriginPick;
  /** The stamp's time less the hub's. */
  stampOffset: number;
  /** The as-of time less the hub's; 'stamp' sends the stamp's, 'none' sends none (the hub reads the stamp's). */
  asOf: number | 'stamp' | 'none';
  stamped: boolean;
  caller: CallerPick;
  iface: 'enterprise' | 'customer';
  /**
   * Its first id: a new one, or the first id of an earlier hostile command of its kind, which the
   * hub must not apply twice. (Not a record of another kind's: the property tells a record's
   * command by the ids it carried, which two applied commands must not share.)
   */
  firstId: 'new' | 'earlier';
}

type Step =
  | { kind: 'assign' | 'reduce' | 'deposit'; store: number; customer: number; amount: number }
  | { kind: 'sell'; store: number; bags: number }
  | { kind: 'round'; store: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'settle' }
  | { kind: 'contact' }
  | { kind: 'hostile'; commands: HostileCommand[] };

const customerPick: fc.Arbitrary<CustomerPick> = fc.record({
  from: fc.constantFrom<CustomerPick['from']>('demo', 'demo', 'demo', 'registered', 'registered', 'madeUp'),
  index: fc.nat({ max: 5 }),
});
const storePick = fc.constantFrom<StorePick>('own', 'own', 'own', 'other', 'madeUp', 'none');
/** Points and money: a till's, a day's, and past anything a store makes. */
const amount = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 400 }) },
  { weight: 2, arbitrary: fc.integer({ min: 401, max: 5_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e6, 1e9, 1e12) },
);
const billItem = fc.record({
  quantity: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -3, max: -1 })),
  price: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 2_000 }) }, { weight: 1, arbitrary: fc.constantFrom(1e6, 2e6) }),
  known: fc.boolean(),
});
const hostileCall: fc.Arbitrary<HostileCall> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom('points.assign' as const, 'points.reduce' as const, 'credits.deposit' as const, 'credits.reduce' as const),
      customer: customerPick,
      amount,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('points.transfer' as const, 'credits.transfer' as const),
      from: customerPick,
      to: customerPick,
      amount,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('customers.create' as const), store: storePick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('purchases.send' as const),
      store: storePick,
      buyer: fc.oneof(customerPick, fc.constantFrom('card' as const, 'none' as const)),
      billNo: fc.integer({ min: 1, max: 4 }),
      items: fc.array(billItem, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('vouchers.create' as const), reward: fc.nat({ max: REWARDS.length - 1 }), customer: customerPick }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('vouchers.apply' as const), voucher: fc.nat({ max: 4 }), store: storePick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('tokens.create' as const, 'customers.delete' as const) }) },
);
/** Behind by up to 400 days (past a point's year), within the hub's tolerance ahead, or past it by up to ten years. */
const offset = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.integer({ min: -400 * DAY_MS, max: -1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: 300_001, max: 3650 * DAY_MS }) },
);
const hostileCommand: fc.Arbitrary<HostileCommand> = fc.record({
  call: hostileCall,
  origin: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom<OriginPick>('own', 'second') },
    { weight: 3, arbitrary: fc.constantFrom<OriginPick>('hub', 'honestNode', 'honestOrigin') },
  ),
  stampOffset: offset,
  asOf: fc.oneof(fc.constantFrom<'stamp' | 'none'>('stamp', 'none'), offset),
  stamped: fc.boolean(),
  caller: fc.oneof(
    { weight: 12, arbitrary: fc.constant<CallerPick>('pos') },
    { weight: 4, arbitrary: fc.constantFrom<CallerPick>('unknownUser', 'anonymous', 'apiUser', 'token') },
  ),
  iface: fc.oneof(
    { weight: 12, arbitrary: fc.constant<HostileCommand['iface']>('enterprise') },
    { weight: 1, arbitrary: fc.constant<HostileCommand['iface']>('customer') },
  ),
  firstId: fc.constantFrom<HostileCommand['firstId']>('new', 'new', 'new', 'new', 'new', 'new', 'earlier'),
});
const honestStore = fc.nat({ max: 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('assign' as const, 'reduce' as const, 'deposit' as const),
      store: honestStore,
      customer: fc.nat({ max: CUSTOMERS.length - 1 }),
      amount: fc.integer({ min: 1, max: HONEST_MAX }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sell' as const), store: honestStore, bags: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('round' as const), store: honestStore }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 60_000, max: 8 * 3_600_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'settle' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'contact' as const }) },
  { weight: 7, arbitrary: fc.record({ kind: fc.constant('hostile' as const), commands: fc.array(hostileCommand, { minLength: 1, maxLength: 12 }) }) },
);
const scenario = fc.array(step, { minLength: 6, maxLength: MAX_STEPS });

/** A hostile command as pushed, with what the property needs of it once answered. */
interface Pushed {
  command_id: string;
  kind: string;
  ids: string[];
  /** The day its totals count on, had the hub applied it. */
  day: string;
  status: string;
}

/** A run's cluster, the hostile node and what the test knows of both. */
interface Run {
  cluster: InProcessCluster;
  hostile: NodeCredentials;
  hostileNodeId: string;
  /** The hub's time of the hostile node's last report that it pushed everything. */
  contactAt: number | undefined;
  seq: number;
  idsMade: number;
  pushed: Pushed[];
  registered: string[];
  issuedVouchers: string[];
  madeUp: Set<string>;
  /** What the honest stores' API accepted, by customer: points in thousandths, credit in minor units. */
  honestPoints: Map<string, number>;
  honestCredit: Map<string, number>;
  bills: number;
  loggedInAt: number[];
}

const dayOf = (hub: TestServer, ms: number) => formatTimestamp(ms, hub.config.time_zone).slice(0, 10);
const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
const one = <T>(list: readonly T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);
const rows = <T>(server: TestServer, sql: string, ...params: unknown[]) => server.app.node.db.prepare(sql).all(...params) as T[];

/** A round at an honest store: every command it pushed applied, none held or rejected. */
async function round(store: InProcessStore): Promise<RoundOutcome> {
  const outcome = await runRound(store.sync, store.server.clock.now);
  expect(outcome, `a round at ${store.name}`).toMatchObject({ ok: true, rejected: 0, held: 0 });
  return outcome;
}

const pending = (store: InProcessStore) =>
  store.server.app.node.db.prepare("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get() as number;

async function syncToRest(run: Run): Promise<void> {
  for (let pass = 0; pass < 6; pass += 1) {
    let pulled = 0;
    for (const store of run.cluster.stores) pulled += (await round(store)).pulled;
    if (pulled === 0 && run.cluster.stores.every((store) => pending(store) === 0)) return;
  }
  for (const store of run.cluster.stores) expect(pending(store), `commands ${store.name} has not pushed`).toBe(0);
}

function customerOf(run: Run, pick: CustomerPick): string {
  if (pick.from === 'registered') {
    const registered = one(run.registered, pick.index);
    if (registered) return registered;
  }
  if (pick.from === 'demo') return CUSTOMERS[pick.index % CUSTOMERS.length]!;
  const madeUp = `ed${hex(pick.index, 24)}`;
  run.madeUp.add(madeUp);
  return madeUp;
}

function storeOf(pick: StorePick): string | undefined {
  return { own: DEMO_IDS.storeCentral, other: DEMO_IDS.storeAirport, madeUp: MADE_UP_STORE, none: undefined }[pick];
}

/** The origin a command is stamped in: one of the hostile node's own, or one reserved for the hub or another node. */
function originOf(run: Run, pick: OriginPick): string {
  const hub = run.cluster.hub;
  const honest = run.cluster.stores[0]!;
  switch (pick) {
    case 'own':
      return HOSTILE_ORIGIN;
    case 'second':
      return SECOND_ORIGIN;
    case 'hub':
      return hub.app.node.identity.nodeId;
    case 'honestNode':
      return hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').pluck().get(honest.credentials.node_name) as string;
    case 'honestOrigin': {
      // An honest store's origin is known to others only once the hub has its facts, and then it is bound.
      const origin = honest.server.app.node.identity.nodeId;
      const bound = hub.app.node.db.prepare('SELECT 1 FROM sync_node_origins WHERE origin = ?').pluck().get(origin);
      return bound === undefined ? HOSTILE_ORIGIN : origin;
    }
  }
}

function principalOf(caller: CallerPick): Record<string, unknown> {
  switch (caller) {
    case 'pos':
      return { kind: 'user', userId: POS_USER, scheme: 'bearer' };
    case 'unknownUser':
      return { kind: 'user', userId: `de${hex(0xfff, 24)}`, scheme: 'bearer' };
    case 'anonymous':
      return { kind: 'anonymous' };
    case 'apiUser':
      return { kind: 'api-user', apiUserId: DEMO_API_USER };
    case 'token':
      return { kind: 'token', apiUserId: DEMO_API_USER, tokenId: hex(1, 64), customerId: DEMO_IDS.customerJana };
  }
}

/** The call's input as a till would send it, naming what the pick names. */
function inputOf(run: Run, hostileCall: HostileCall, asOf: number): { params: Record<string, string>; body: unknown } {
  const hub = run.cluster.hub;
  const withStore = (pick: StorePick, body: Record<string, unknown>) => {
    const storeId = storeOf(pick);
    return storeId === undefined ? body : { store_id: storeId, ...body };
  };
  switch (hostileCall.kind) {
    case 'points.assign':
    case 'points.reduce':
    case 'credits.deposit':
    case 'credits.reduce':
      return { params: {}, body: { customer_id: customerOf(run, hostileCall.customer), amount: hostileCall.amount } };
    case 'points.transfer':
    case 'credits.transfer':
      return {
        params: {},
        body: {
          original_customer_id: customerOf(run, hostileCall.from),
          new_customer_id: customerOf(run, hostileCall.to),
          amount: hostileCall.amount,
        },
      };
    case 'customers.create': {
      const n = run.idsMade;
      const personal = withStore(hostileCall.store, { first_name: `Made${n}`, email: `made-${n}@evil.test` });
      return { params: {}, body: { customer: { personal_information: personal } } };
    }
    case 'purchases.send': {
      const items = hostileCall.items.map((item, index) => ({
        plu_ids: [{ list_code: 'GLOBAL', code: item.known ? BEANS : '999000111' }],
        quantity: item.quantity,
        price: item.price,
        paid_amount: item.quantity * item.price,
        bill_item_id: index + 1,
      }));
      const buyer =
        hostileCall.buyer === 'none'
          ? {}
          : hostileCall.buyer === 'card'
            ? { card_number: demoCredentials.customer_card }
            : { customer_id: customerOf(run, hostileCall.buyer) };
      const bill = {
        bill_id: `H-${hostileCall.billNo}`,
        payment_time: formatTimestamp(asOf, hub.config.time_zone),
        total_price: items.reduce((sum, item) => sum + item.paid_amount, 0),
        bill_items: items,
        payment_recap: {},
      };
      return { params: {}, body: withStore(hostileCall.store, { cashdesk_number: 1, ...buyer, bill }) };
    }
    case 'vouchers.create':
      return { params: { reward_id: REWARDS[hostileCall.reward]! }, body: { customer_id: customerOf(run, hostileCall.customer) } };
    case 'vouchers.apply': {
      const voucherId = one([JANA_VOUCHER, ...run.issuedVouchers], hostileCall.voucher)!;
      return { params: { voucher_id: voucherId }, body: withStore(hostileCall.store, { date_applied: formatTimestamp(asOf, hub.config.time_zone) }) };
    }
    case 'tokens.create':
    case 'customers.delete':
      return { params: {}, body: {} };
  }
}

/** Ids as a store makes them, time first, of a range no honest store draws from. */
function newIds(run: Run, count: number): string[] {
  const now = run.cluster.hub.clock.now();
  return Array.from({ length: count }, () => `${hex(now, 12)}ee${hex((run.idsMade += 1), 12)}`);
}

/**
 * The day an operation's totals count on (src/sync/hub/limit-days.ts): its as-of day, brought
 * back to the hub's time when ahead past the tolerance, within the days from its node's last
 * contact (today when it never reported) to today.
 */
function countedDay(run: Run, claimedAsOf: number): string {
  const hub = run.cluster.hub;
  const now = hub.clock.now();
  const asOf = claimedAsOf - now <= hub.config.sync.max_clock_skew_seconds * 1000 ? claimedAsOf : now;
  const today = dayOf(hub, now);
  const contactDay = run.contactAt === undefined ? today : dayOf(hub, run.contactAt);
  const first = contactDay < today ? contactDay : today;
  const day = dayOf(hub, asOf);
  return day < first ? first : day > today ? today : day;
}

async function pushHostile(run: Run, commands: HostileCommand[]): Promise<void> {
  const hub = run.cluster.hub;
  const now = hub.clock.now();
  const wire = commands.map((command) => {
    run.seq += 1;
    const stampMs = now + command.stampOffset;
    const hlc = `${hex(stampMs, 12)}-${hex(run.seq % 0xffff, 4)}-${originOf(run, command.origin)}`;
    const asOf = command.asOf === 'stamp' || command.asOf === 'none' ? stampMs : now + command.asOf;
    const ids = newIds(run, 6);
    const earlier = one(
      run.pushed.filter((pushed) => pushed.kind === command.call.kind),
      run.seq,
    )?.ids[0];
    if (command.firstId === 'earlier' && earlier) ids[0] = earlier;
    const input = inputOf(run, command.call, asOf);
    const commandId = `hostile-${run.seq}-${ids[1]}`;
    run.pushed.push({ command_id: commandId, kind: command.call.kind, ids, day: countedDay(run, asOf), status: 'unanswered' });
    return {
      seq: run.seq,
      command_id: commandId,
      kind: command.call.kind,
      hlc,
      operation: {
        call: { iface: command.iface, input: { ...input, query: {} }, principal: principalOf(command.caller) },
        ...(command.asOf === 'none' ? {} : { as_of: asOf }),
        ids,
        ...(command.stamped ? { stamps: [hlc] } : {}),
      },
    };
  });
  const answer = await call('POST', `${hub.url}/sync/v1/commands`, {
    headers: nodeHeaders(run.hostile),
    body: { generation: 'hostile', commands: wire },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const results = (answer.body as { results: PushResult[] }).results;
  expect(results.map((result) => result.seq)).toEqual(wire.map((command) => command.seq));
  for (const [index, result] of results.entries()) {
    const pushed = run.pushed[run.pushed.length - wire.length + index]!;
    pushed.status = result.status;
    if (result.status !== 'applied') continue;
    if (pushed.kind === 'customers.create') run.registered.push(pushed.ids[0]!);
    if (pushed.kind === 'vouchers.create') run.issuedVouchers.push(pushed.ids[0]!);
  }
}

/** The hostile node's report that it pushed everything: its last contact with the hub. */
async function contact(run: Run): Promise<void> {
  const hub = run.cluster.hub;
  const stamp = `${hex(hub.clock.now(), 12)}-0000-${HOSTILE_ORIGIN}`;
  const pulled = await call('GET', `${hub.url}/sync/v1/changes?after=0&limit=1&pushed_through=${stamp}`, { headers: nodeHeaders(run.hostile) });
  expect(pulled.status).toBe(200);
  run.contactAt = hub.clock.now();
}

async function honestWrite(run: Run, next: Extract<Step, { kind: 'assign' | 'reduce' | 'deposit' }>): Promise<void> {
  const store = run.cluster.stores[next.store]!;
  const customerId = CUSTOMERS[next.customer]!;
  const path = { assign: 'points/actions/assign-points', reduce: 'points/actions/reduce-points', deposit: 'credits/actions/deposit-credits' }[
    next.kind
  ];
  const answer = await call('POST', `${store.server.api('enterprise')}/${path}`, {
    headers: store.auth,
    body: { customer_id: customerId, amount: next.amount },
  });
  if (next.kind === 'reduce' && answer.status !== 204) {
    // Beyond what the store may redeem offline: refused at the till, nothing happened.
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    return;
  }
  expect(answer.status, JSON.stringify(answer.body)).toBe(next.kind === 'deposit' ? 201 : 204);
  if (next.kind === 'deposit') add(run.honestCredit, customerId, next.amount * 100);
  else add(run.honestPoints, customerId, (next.kind === 'assign' ? 1 : -1) * next.amount * 1000);
}

async function honestSale(run: Run, storeIndex: number, bags: number): Promise<void> {
  const store = run.cluster.stores[storeIndex]!;
  run.bills += 1;
  const answer = await call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: store.auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 10 + storeIndex,
      card_number: demoCredentials.customer_card,
      bill: {
        bill_id: `S${storeIndex}-${run.bills}`,
        payment_time: formatTimestamp(store.server.clock.now(), store.server.config.time_zone),
        total_price: 100 * bags,
        bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: BEANS }], quantity: bags, price: 100, paid_amount: 100 * bags, bill_item_id: 1 }],
        payment_recap: {},
      },
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  add(run.honestPoints, DEMO_IDS.customerJana, bags * POINTS_PER_BAG * 1000);
  add(run.honestCredit, DEMO_IDS.customerJana, bags * CREDIT_BACK_PER_BAG_MINOR);
}

async function perform(run: Run, next: Step): Promise<void> {
  const { cluster } = run;
  switch (next.kind) {
    case 'assign':
    case 'reduce':
    case 'deposit':
      return honestWrite(run, next);
    case 'sell':
      return honestSale(run, next.store, next.bags);
    case 'round':
      await round(cluster.stores[next.store]!);
      return;
    case 'advance':
      for (const server of [cluster.hub, ...cluster.stores.map((store) => store.server)]) server.clock.advance(next.ms);
      // A POS session lasts seven hours: the tills log in again before theirs ends.
      for (const [index, store] of cluster.stores.entries()) {
        if (store.server.clock.now() - run.loggedInAt[index]! < POS_SESSION_MS) continue;
        store.auth = await demoPosLogin(store.server);
        run.loggedInAt[index] = store.server.clock.now();
      }
      return;
    case 'settle':
      await settleStates(cluster.hub.app.node.states!, cluster.hub.app.node.writes);
      return;
    case 'contact':
      return contact(run);
    case 'hostile':
      return pushHostile(run, next.commands);
  }
}

const originOfRow = (row: { hlc: string }) => row.hlc.slice(row.hlc.lastIndexOf('-') + 1);
const signed = (row: { kind: string }, amount: number) => (row.kind === 'collection' ? amount : -amount);

/**
 * The records at the hub, each of exactly one source: the opening records, an honest store's
 * origin, or a hostile command the hub applied (by the ids it carried, the bill it made, the
 * voucher whose cost it is). A record of a hostile origin that no applied command owns, or of
 * no source at all, fails the property.
 */
function recordsBySource(run: Run, opening: { points: Set<string>; credit: Set<string> }) {
  const hub = run.cluster.hub;
  const hostileOrigins = new Set(
    rows<{ origin: string }>(hub, 'SELECT origin FROM sync_node_origins WHERE node_id = ?', run.hostileNodeId).map((row) => row.origin),
  );
  const honestOrigins = new Set(run.cluster.stores.map((store) => store.server.app.node.identity.nodeId));
  // Each id an applied command carried, with the voucher cost it would make, is that command's; the first to carry it owns it.
  const owner = new Map<string, Pushed>();
  for (const pushed of run.pushed.filter((command) => command.status === 'applied')) {
    for (const id of pushed.ids) {
      if (!owner.has(id)) owner.set(id, pushed);
      if (!owner.has(derivedId(id, 'points:voucher'))) owner.set(derivedId(id, 'points:voucher'), pushed);
    }
  }
  const ownerOf = (row: { id: string; purchase_id: string | null }) =>
    owner.get(row.id) ?? (row.purchase_id === null ? undefined : owner.get(row.purchase_id));
  const sourceOf = (row: { id: string; hlc: string; purchase_id: string | null }, openingIds: Set<string>, table: string) => {
    if (openingIds.has(row.id)) return 'opening';
    const origin = originOfRow(row);
    if (honestOrigins.has(origin)) return 'honest';
    expect(hostileOrigins.has(origin), `${table} ${row.id} stamped ${row.hlc}: of no honest store nor the hostile node`).toBe(true);
    expect(ownerOf(row), `${table} ${row.id} of the hostile node, of no command the hub applied`).toBeDefined();
    return 'hostile';
  };
  /** The rows of a table the hostile node's origins stamped, each with the applied command that owns it. */
  const hostileRows = <T extends { id: string; hlc: string }>(table: string) =>
    rows<T>(hub, `SELECT * FROM ${table}`)
      .filter((row) => hostileOrigins.has(originOfRow(row)))
      .map((row) => {
        const pushed = owner.get(row.id);
        expect(pushed, `${table} ${row.id} of no hostile command the hub applied`).toBeDefined();
        return { row, owner: pushed! };
      });
  const sourced = <T extends { id: string; hlc: string; purchase_id: string | null }>(table: string, openingIds: Set<string>) =>
    rows<T>(hub, `SELECT * FROM ${table}`).map((row) => {
      const source = sourceOf(row, openingIds, table);
      return { row, source, owner: source === 'hostile' ? ownerOf(row) : undefined };
    });
  return {
    points: sourced<PointRow>('point_records', opening.points),
    credit: sourced<CreditRow>('credit_records', opening.credit),
    vouchers: hostileRows<{ id: string; hlc: string; value_minor: number }>('vouchers'),
    customers: hostileRows<{ id: string; hlc: string }>('customers'),
    purchases: hostileRows<{ id: string; hlc: string }>('purchases'),
    applications: hostileRows<{ id: string; hlc: string }>('voucher_applications'),
    owner,
  };
}

/** Points at `at`, in thousandths: the fold of live point records (test/support/ledger-oracle.ts). */
function fold(records: readonly PointRow[], at: number): number {
  return foldRecords(
    records.filter((record) => record.state === 1),
    at,
  );
}

/** (1): nothing of an honest store's is held, rejected or unapplied, at the hub or at the store. */
function expectHonestAllApplied(run: Run): void {
  const hub = run.cluster.hub;
  for (const store of run.cluster.stores) {
    expect(rows(store.server, 'SELECT command_id, status, reason FROM unapplied_commands'), `unapplied at ${store.name}`).toEqual([]);
    const nodeId = hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').pluck().get(store.credentials.node_name);
    expect(rows(hub, "SELECT command_id, status, reason FROM applied_commands WHERE node_id = ? AND status <> 'applied'", nodeId)).toEqual([]);
    expect(rows(hub, 'SELECT command_id, reason FROM held_commands WHERE node_id = ?', nodeId)).toEqual([]);
  }
}

/** (2): every balance is the fold of the opening, honest and applied hostile facts, at the hub and at every honest store. */
function expectBalances(run: Run, opening: { points: Set<string>; credit: Set<string> }): ReturnType<typeof recordsBySource> {
  const hub = run.cluster.hub;
  const sources = recordsBySource(run, opening);
  // The hub kept each hostile command's result as the push answered it.
  const kept = new Map(
    rows<{ command_id: string; status: string }>(hub, 'SELECT command_id, status FROM applied_commands WHERE node_id = ?', run.hostileNodeId).map(
      (row) => [row.command_id, row.status],
    ),
  );
  for (const pushed of run.pushed) expect(kept.get(pushed.command_id), pushed.command_id).toBe(pushed.status);

  const customers = new Set([
    ...CUSTOMERS,
    ...run.registered,
    ...run.madeUp,
    ...sources.points.map(({ row }) => row.customer_id),
    ...sources.credit.map(({ row }) => row.customer_id),
  ]);
  for (const customerId of customers) {
    const points = sources.points.filter(({ row }) => row.customer_id === customerId);
    const credit = sources.credit.filter(({ row }) => row.customer_id === customerId);
    const honestPoints = points.filter(({ source }) => source === 'honest').reduce((sum, { row }) => sum + signed(row, row.points_milli), 0);
    const honestCredit = credit.filter(({ source }) => source === 'honest').reduce((sum, { row }) => sum + signed(row, row.amount_minor), 0);
    expect(honestPoints, `${customerId}: the honest stores' points at the hub`).toBe(run.honestPoints.get(customerId) ?? 0);
    expect(honestCredit, `${customerId}: the honest stores' credit at the hub`).toBe(run.honestCredit.get(customerId) ?? 0);
    // The opening and honest facts, and the hostile node's that an applied command owns (only applied ones own any).
    const counted = <T extends { source: string; owner: Pushed | undefined }>(record: T) => record.source !== 'hostile' || record.owner !== undefined;
    const expectedPoints = fold(
      points.filter(counted).map(({ row }) => row),
      hub.clock.now(),
    );
    const expectedCredit = credit
      .filter((record) => counted(record) && record.row.state === 1)
      .reduce((sum, { row }) => sum + signed(row, row.amount_minor), 0);
    const atHub = hub.app.node.balances.balancesAt(customerId, hub.clock.now());
    expect({ points: atHub.pointsMilli, credit: atHub.creditMinor }, `${customerId} at the hub`).toEqual({
      points: expectedPoints,
      credit: expectedCredit,
    });
    for (const store of run.cluster.stores) {
      expect(store.server.app.node.balances.balancesAt(customerId, store.server.clock.now()), `${customerId} at ${store.name}`).toEqual(atHub);
    }
  }
  // Nothing a held or rejected hostile command carried is at any node.
  const unapplied = run.pushed
    .filter((pushed) => pushed.status !== 'applied')
    .flatMap((pushed) => pushed.ids.filter((id) => !sources.owner.has(id) && !opening.points.has(id) && !opening.credit.has(id)));
  for (const server of [hub, ...run.cluster.stores.map((store) => store.server)]) {
    for (const table of ['point_records', 'credit_records', 'vouchers', 'customers', 'purchases', 'voucher_applications']) {
      const found = unapplied.filter((id) => server.app.node.db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined);
      expect(found, `${table} of held or rejected commands`).toEqual([]);
    }
  }
  return sources;
}

/** (3): what the hub applied of the hostile node, by the day it counts on, within its node totals and the limits by hand per customer. */
function expectWithinTotals(run: Run, sources: ReturnType<typeof recordsBySource>): void {
  const hub = run.cluster.hub;
  const totals = new Map<string, Record<string, number>>();
  const byHand = new Map<string, { points: number; credit: number }>();
  const dayTotals = (day: string) => totals.get(day) ?? totals.set(day, {}).get(day)!;
  const count = (day: string, total: string, value: number) => {
    const kept = dayTotals(day);
    kept[total] = (kept[total] ?? 0) + value;
  };
  const handed = (pushed: Pushed, customerId: string) => {
    const key = `${customerId} ${pushed.day}`;
    return byHand.get(key) ?? byHand.set(key, { points: 0, credit: 0 }).get(key)!;
  };
  for (const { row, owner } of sources.points) {
    if (owner === undefined) continue;
    if (row.linked_point_id === null) count(owner.day, row.kind === 'collection' ? 'points_created' : 'points_redeemed', row.points_milli);
    if (MANUAL_KINDS.has(owner.kind)) handed(owner, row.customer_id).points += row.points_milli;
  }
  for (const { row, owner } of sources.credit) {
    if (owner === undefined) continue;
    if (row.kind === 'collection' && row.linked_credit_id === null) count(owner.day, 'credit_created', row.amount_minor);
    if (MANUAL_KINDS.has(owner.kind)) handed(owner, row.customer_id).credit += row.amount_minor;
  }
  for (const { row, owner } of sources.vouchers) {
    count(owner.day, 'vouchers_issued', 1);
    count(owner.day, 'voucher_value', row.value_minor);
  }
  for (const { owner } of sources.customers) count(owner.day, 'customers_registered', 1);
  const returns = new Set(
    rows<{ id: string }>(
      hub,
      `SELECT id FROM purchases p WHERE cancels_purchase_id IS NULL
         AND (canceled = 1 OR EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id AND i.amount_milli < 0))`,
    ).map((row) => row.id),
  );
  for (const { row, owner } of sources.purchases) if (returns.has(row.id)) count(owner.day, 'returns_without_original', 1);
  const scale: Record<string, number> = { points_created: 1000, points_redeemed: 1000, credit_created: 100, voucher_value: 100 };
  for (const [day, counted] of totals) {
    for (const [total, value] of Object.entries(counted)) {
      const limit = NODE_DAILY[total as keyof typeof NODE_DAILY] * (scale[total] ?? 1);
      expect(value, `the hostile node's ${total} on ${day}`).toBeLessThanOrEqual(limit);
    }
  }
  for (const [key, handedOut] of byHand) {
    expect(handedOut.points, `points by hand for ${key}`).toBeLessThanOrEqual(MANUAL_POINTS_PER_CUSTOMER_DAY * 1000);
    expect(handedOut.credit, `credit by hand for ${key}`).toBeLessThanOrEqual(MANUAL_CREDIT_PER_CUSTOMER_DAY * 100);
  }
}

/**
 * What the runs together came to: a property whose hostile commands were all refused before the
 * hub judged them, or never passed a total, would hold whatever the hub applied.
 */
const seen = { applied: 0, pastNodeTotal: 0, pastCustomerLimit: 0 };

function tally(run: Run): void {
  seen.applied += run.pushed.filter((pushed) => pushed.status === 'applied').length;
  const held = rows<{ reason: string }>(run.cluster.hub, 'SELECT reason FROM held_commands WHERE node_id = ?', run.hostileNodeId);
  seen.pastNodeTotal += held.filter(({ reason }) => reason.includes("past this node's daily total")).length;
  seen.pastCustomerLimit += held.filter(({ reason }) => reason.includes("past this node's limit")).length;
}

async function runScenario(steps: Step[]): Promise<void> {
  const cluster = await startInProcessCluster({
    stores: 2,
    hubClock: new TestClock(T0),
    storeClock: () => new TestClock(T0),
    hubConfig: {
      'authority.manual_points_per_customer_day': MANUAL_POINTS_PER_CUSTOMER_DAY,
      'authority.manual_credit_per_customer_day': MANUAL_CREDIT_PER_CUSTOMER_DAY,
      ...Object.fromEntries(Object.entries(NODE_DAILY).map(([key, value]) => [`authority.node_daily.${key}`, value])),
    },
  });
  try {
    const hub = cluster.hub;
    const hostile = hub.app.services.nodes.add('store-hostile', [DEMO_IDS.storeCentral]);
    const run: Run = {
      cluster,
      hostile,
      hostileNodeId: hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').pluck().get(hostile.node_name) as string,
      contactAt: undefined,
      seq: 0,
      idsMade: 0,
      pushed: [],
      registered: [],
      issuedVouchers: [],
      madeUp: new Set(),
      honestPoints: new Map(),
      honestCredit: new Map(),
      bills: 0,
      loggedInAt: cluster.stores.map(() => T0),
    };
    const opening = {
      points: new Set(rows<{ id: string }>(hub, 'SELECT id FROM point_records').map((row) => row.id)),
      credit: new Set(rows<{ id: string }>(hub, 'SELECT id FROM credit_records').map((row) => row.id)),
    };
    for (const next of steps) await perform(run, next);
    await syncToRest(run);
    expectHonestAllApplied(run);
    expectBalances(run, opening);
    // Once the hub has settled its customer states, they and the stores agree with the same fold.
    await settleStates(hub.app.node.states!, hub.app.node.writes);
    await syncToRest(run);
    expectHonestAllApplied(run);
    expectWithinTotals(run, expectBalances(run, opening));
    tally(run);
  } finally {
    await cluster.close();
  }
}

describe('a hostile node pushing random operations beside honest stores', () => {
  it("holds or rejects what it may not do, counts what the hub applied within its totals, and never holds an honest store's command", async () => {
    // A run starts a hub and two stores (seconds on a shared machine); the time limit bounds the runs and any shrinking.
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: 15, interruptAfterTimeLimit: 200_000 });
    expect(seen.applied, 'hostile commands the hub applied').toBeGreaterThan(0);
    expect(seen.pastNodeTotal, "hostile commands held past a node's daily total").toBeGreaterThan(0);
    expect(seen.pastCustomerLimit, 'hostile commands held past a limit per customer').toBeGreaterThan(0);
  }, 260_000);
});
