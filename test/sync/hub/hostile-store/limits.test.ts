/**
 * A hostile store's node, with its valid secret, pushes crafted operations to a real hub past
 * its daily totals (DESIGN §5 "Authority", src/sync/hub/node-limits.ts): each total passed
 * holds the operation that passes it, counted nowhere, with a reason naming the total, its
 * limit and the day; made-up customers and a bill's credit back are counted in the node's
 * totals; a node may use each day's allowance from its last contact with the hub to today once,
 * so an honest store back from a week offline holds nothing, and days before its last contact
 * are counted on that day. Beside it an honest store syncs and sees what the hub holds.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../../src/demo/demo.js';
import { schemaVersion } from '../../../../src/db/migrate.js';
import { formatTimestamp } from '../../../../src/core/time.js';
import { PROTOCOL_VERSION } from '../../../../src/sync/protocol/protocol.js';
import { runRound } from '../../../../src/sync/store/agent.js';
import type { SyncParts } from '../../../../src/sync/store/sync-parts.js';
import { createFeedCompaction } from '../../../../src/root/hub.js';
import { createStoreSync } from '../../../../src/root/store.js';
import { basic, call, demoPosLogin, startTestServer, tempDir, TestClock, type TestServer } from '../../../support/server.js';
import { hex } from '../../../support/ids.js';
import { count } from '../../../support/node-reads.js';

const EVA = DEMO_IDS.customerEva;
const PETR = DEMO_IDS.customerPetr;
const AIRPORT = DEMO_IDS.storeAirport;
const PETR_CARD = `de${(0x401).toString(16).padStart(24, '0')}`;
/** The demo's POS user, of Prague Central, which every node here serves beside the airport. */
const POS_USER = `de${(0x101).toString(16).padStart(24, '0')}`;
const MORNING_PASTRY = 'de000000000000000000000603';
const AIRPORT_50 = 'de000000000000000000000604';
const DAY_MS = 86_400_000;

interface Node {
  node_name: string;
  node_secret: string;
}

let ids = 0;
/** The origin each node stamps with: one of its own, as every node's is. */
const origins = new Map<string, string>();
const originOf = (node: Node) => origins.get(node.node_name) ?? origins.set(node.node_name, `a0${hex(origins.size + 1, 6)}`).get(node.node_name)!;
const newId = (at = Date.now()) => `${hex(at, 12)}${hex((ids += 1), 14)}`;
const dayOf = (server: TestServer, ms: number) => formatTimestamp(ms, server.config.time_zone).slice(0, 10);

/**
 * A store's command: the API call it served (src/core/operations.ts), made at `at` on a clock
 * that stands where the hub's does, with the ids it made.
 */
function command(node: Node, seq: number, kind: string, input: { params?: Record<string, string>; body: unknown }, at: number) {
  return {
    seq,
    command_id: `${kind}-${seq}-${newId(at)}`,
    kind,
    hlc: `${hex(at, 12)}-${hex(seq % 0xffff, 4)}-${originOf(node)}`,
    operation: {
      call: {
        iface: 'enterprise',
        input: { params: input.params ?? {}, query: {}, body: input.body },
        principal: { kind: 'user', userId: POS_USER, scheme: 'bearer' },
      },
      as_of: at,
      ids: [newId(at)],
    },
  };
}

function headers(node: Node) {
  return {
    ...basic(node.node_name, node.node_secret),
    'x-loyaltyd-protocol': String(PROTOCOL_VERSION),
    'x-loyaltyd-schema': String(schemaVersion()),
  };
}

async function push(server: TestServer, node: Node, generation: string, commands: unknown[]) {
  const pushed = await call('POST', `${server.url}/sync/v1/commands`, { headers: headers(node), body: { generation, commands } });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  return (pushed.body as { results: { seq: number; status: string; reason: string | null }[] }).results;
}

/** The node's pull reporting it has pushed everything: its contact with the hub, at the hub's time. */
async function contact(server: TestServer, node: Node) {
  const stamp = `${hex(server.clock.now(), 12)}-0000-${originOf(node)}`;
  const pulled = await call('GET', `${server.url}/sync/v1/changes?after=0&limit=1&pushed_through=${stamp}`, { headers: headers(node) });
  expect(pulled.status).toBe(200);
}

const nodeDay = (server: TestServer, node: Node, day: string) =>
  server.app.node.db.prepare('SELECT * FROM node_days WHERE node_id = (SELECT id FROM nodes WHERE name = ?) AND day = ?').get(node.node_name, day) as
    Record<string, number> | undefined;

const bill = (billId: string, items: { quantity: number; price: number }[], customerId?: string) => ({
  store_id: AIRPORT,
  cashdesk_number: 1,
  ...(customerId ? { customer_id: customerId } : {}),
  bill: {
    bill_id: billId,
    payment_time: '2026-12-01 10:00:00',
    total_price: items.reduce((sum, item) => sum + item.quantity * item.price, 0),
    bill_items: items.map((item, index) => ({
      plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }],
      quantity: item.quantity,
      price: item.price,
      paid_amount: item.quantity * item.price,
      bill_item_id: index + 1,
    })),
    payment_recap: {},
  },
});

describe('a hostile node past its daily totals', () => {
  let hub: TestServer;
  let hubDir: string;

  beforeAll(async () => {
    hubDir = tempDir();
    // Per customer nothing binds here; each node total is small enough for a few operations to pass it.
    hub = await startTestServer({
      dataDir: hubDir,
      config: {
        mode: 'hub',
        'authority.earned_points_per_customer_day': 100_000_000,
        'authority.redeemed_points_per_customer_day': 100_000_000,
        'authority.manual_points_per_customer_day': 100_000_000,
        'authority.manual_credit_per_customer_day': 100_000_000,
        'authority.node_daily.points_created': 1_000_000,
        'authority.node_daily.credit_created': 10_000,
        'authority.node_daily.points_redeemed': 1_000,
        'authority.node_daily.vouchers_issued': 2,
        'authority.node_daily.voucher_value': 60,
        'authority.node_daily.customers_registered': 2,
        'authority.node_daily.card_changes': 1,
        'authority.node_daily.profile_changes': 1,
        'authority.node_daily.returns_without_original': 1,
      },
    });
    const funded = await call('POST', `${hub.api('enterprise')}/points/actions/assign-points`, {
      headers: await demoPosLogin(hub),
      body: { customer_id: PETR, amount: 10_000 },
    });
    expect(funded.status).toBe(204);
  });

  afterAll(async () => {
    await hub?.close();
    rmSync(hubDir, { recursive: true, force: true });
  });

  const assign = (customerId: string, amount: number) => ({ body: { customer_id: customerId, amount } });
  const cases: { total: string; column: string; calls: [string, { params?: Record<string, string>; body: unknown }][] }[] = [
    {
      total: 'points_created',
      column: 'points_created_milli',
      calls: [
        ['points.assign', assign(EVA, 600_000)],
        ['points.assign', assign(EVA, 600_000)],
      ],
    },
    {
      total: 'credit_created',
      column: 'credit_created_minor',
      calls: [
        ['credits.deposit', assign(EVA, 6_000)],
        ['credits.deposit', assign(EVA, 6_000)],
      ],
    },
    {
      total: 'points_redeemed',
      column: 'points_redeemed_milli',
      calls: [
        ['points.reduce', assign(PETR, 600)],
        ['points.reduce', assign(PETR, 600)],
      ],
    },
    {
      total: 'vouchers_issued',
      column: 'vouchers_issued',
      calls: [0, 1, 2].map(() => ['vouchers.create', { params: { reward_id: MORNING_PASTRY }, body: { customer_id: PETR } }]),
    },
    {
      total: 'voucher_value',
      column: 'voucher_value_minor',
      calls: [0, 1].map(() => ['vouchers.create', { params: { reward_id: AIRPORT_50 }, body: { customer_id: PETR } }]),
    },
    {
      total: 'customers_registered',
      column: 'customers_registered',
      calls: [0, 1, 2].map((n) => [
        'customers.create',
        { body: { customer: { personal_information: { first_name: 'Made', email: `made-up-${n}@evil.test` } } } },
      ]),
    },
    {
      total: 'card_changes',
      column: 'card_changes',
      calls: [
        // A card's own fields changed: it stays with its customer, and is no card change.
        ['cards.update', { params: { card_id: PETR_CARD }, body: { card: { secondary_card_number: 'S-1' } } }],
        ['cards.update', { params: { card_id: PETR_CARD }, body: { card: { customer_id: EVA } } }],
        ['cards.update', { params: { card_id: PETR_CARD }, body: { card: { customer_id: PETR } } }],
      ],
    },
    {
      total: 'profile_changes',
      column: 'profile_changes',
      calls: [
        // A name changed is no profile change.
        ['customers.update', { params: { customer_id: EVA }, body: { customer: { personal_information: { first_name: 'Evička' } } } }],
        ['customers.update', { params: { customer_id: EVA }, body: { customer: { personal_information: { phone: '+420777000111' } } } }],
        ['customers.update', { params: { customer_id: EVA }, body: { customer: { personal_information: { email: 'attacker@evil.test' } } } }],
      ],
    },
    {
      total: 'returns_without_original',
      column: 'returns_without_original',
      calls: [1, 2].map((n) => ['purchases.send', { body: bill(`RETURN-${n}`, [{ quantity: -1, price: 100 }]) }]),
    },
  ];

  it.each(cases)(
    'holds the operation that passes $total, counted nowhere, the reason naming the total, its limit and the day',
    async ({ total, column, calls }) => {
      const node = hub.app.services.nodes.add(`store-${total}`, [AIRPORT, DEMO_IDS.storeCentral]);
      const now = hub.clock.now();
      const commands = calls.map(([kind, input], index) => command(node, index + 1, kind, input, now));
      const results = await push(hub, node, total, commands);
      const limit = (hub.config.authority.node_daily as Record<string, number>)[total]!;
      expect(results.map((result) => result.status)).toEqual([...calls.slice(1).map(() => 'applied'), 'held']);
      expect(results.at(-1)!.reason).toMatch(new RegExp(` on ${dayOf(hub, now)}, past this node's daily total ${total} of ${limit}( points)?$`));
      expect(count(hub, "SELECT count(*) AS n FROM held_commands WHERE command_id = ? AND state = 'held'", commands.at(-1)!.command_id)).toBe(1);
      // The held operation's count was taken back with it: the day's total stays within its limit.
      const kept = nodeDay(hub, node, dayOf(hub, now))!;
      expect(kept[column]).toBeGreaterThan(0);
      const scale = column.endsWith('_milli') ? 1000 : column.endsWith('_minor') ? 100 : 1;
      expect(kept[column]).toBeLessThanOrEqual(limit * scale);
    },
  );

  it('counts the credit back of a bill buying 2,000,000 and returning 1,000,000 in the credit it created', async () => {
    const node = hub.app.services.nodes.add('store-credit-back', [AIRPORT, DEMO_IDS.storeCentral]);
    const now = hub.clock.now();
    const credit = () => hub.app.node.balances.balancesAt(EVA, hub.clock.now()).creditMinor;
    const before = credit();
    const sale = bill(
      'MILLIONS-1',
      [
        { quantity: 1, price: 2_000_000 },
        { quantity: -1, price: 1_000_000 },
      ],
      EVA,
    );
    const [result] = await push(hub, node, 'credit-back', [command(node, 1, 'purchases.send', { body: sale }, now)]);
    // 2 % of the 1,000,000 the bill paid: 20,000 of credit back, past the node's 10,000.
    expect(result).toMatchObject({
      status: 'held',
      reason: `credit created: 20000 on ${dayOf(hub, now)}, past this node's daily total credit_created of 10000`,
    });
    expect(credit()).toBe(before);
    expect(count(hub, "SELECT count(*) AS n FROM purchases WHERE external_purchase_id = 'MILLIONS-1'")).toBe(0);
    expect(nodeDay(hub, node, dayOf(hub, now))).toBeUndefined();
  });
});

describe("a node's days, with the defaults, beside an honest store", () => {
  let hub: TestServer;
  let hubDir: string;
  let honest: TestServer;
  let honestSync: SyncParts;
  const madeUp: string[] = [];
  const credit = (server: TestServer, customerId: string) => server.app.node.balances.balancesAt(customerId, server.clock.now()).creditMinor;
  const points = (server: TestServer, customerId: string) => server.app.node.balances.balancesAt(customerId, server.clock.now()).pointsMilli;

  beforeAll(async () => {
    hubDir = tempDir();
    hub = await startTestServer({ dataDir: hubDir, config: { mode: 'hub' } });
    const credentials = hub.app.services.nodes.add('store-honest', [DEMO_IDS.storeCentral]);
    honest = await startTestServer({
      demo: false,
      clock: new TestClock(hub.clock.now()),
      config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
    });
    honestSync = createStoreSync(honest.app.node, honest.config, honest.clock.now)!;
    // The customers a hostile store registered: made up, each with an address of its own.
    const auth = await demoPosLogin(hub);
    for (let n = 0; n < 100; n += 1) {
      const made = await call('POST', `${hub.api('enterprise')}/customers`, {
        headers: auth,
        body: { customer: { personal_information: { first_name: `Made${n}`, email: `made-up-${n}@evil.test` } } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      madeUp.push(made.body.data.customer_id as string);
    }
    expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
  });

  afterAll(async () => {
    await honestSync?.client.close();
    await honest?.close();
    await hub?.close();
    rmSync(hubDir, { recursive: true, force: true });
  });

  it("holds the credit given to 100 made-up customers past the node's total, and the honest store sees only what the hub applied", async () => {
    const node = hub.app.services.nodes.add('store-made-up', [AIRPORT, DEMO_IDS.storeCentral]);
    const now = hub.clock.now();
    const commands = madeUp.flatMap((customerId, n) => [
      command(node, 2 * n + 1, 'credits.deposit', { body: { customer_id: customerId, amount: 10_000 } }, now),
      command(node, 2 * n + 2, 'points.assign', { body: { customer_id: customerId, amount: 1_000 } }, now),
    ]);
    const results = await push(hub, node, 'made-up', commands);
    const deposits = results.filter((_, index) => index % 2 === 0);
    // 400,000 of credit a day: the first 40 deposits of 10,000 each; the 100,000 points are within the 2,000,000.
    expect(deposits.map((result) => result.status)).toEqual([...Array(40).fill('applied'), ...Array(60).fill('held')]);
    expect(deposits[40]!.reason).toBe(`credit created: 410000 on ${dayOf(hub, now)}, past this node's daily total credit_created of 400000`);
    expect(results.filter((_, index) => index % 2 === 1).every((result) => result.status === 'applied')).toBe(true);
    const given = madeUp.reduce((sum, customerId) => sum + credit(hub, customerId), 0);
    expect(given).toBe(400_000_00);
    expect(nodeDay(hub, node, dayOf(hub, now))).toMatchObject({ credit_created_minor: 400_000_00, points_created_milli: 100_000_000 });

    honest.clock.ms = hub.clock.now();
    expect(await runRound(honestSync, honest.clock.now)).toMatchObject({ ok: true });
    for (const customerId of [madeUp[0]!, madeUp[39]!, madeUp[40]!, madeUp[99]!]) {
      expect(credit(honest, customerId)).toBe(credit(hub, customerId));
      expect(points(honest, customerId)).toBe(points(hub, customerId));
    }
    expect(credit(hub, madeUp[40]!)).toBe(0);
  });

  it('holds nothing of a store back from a week offline, each day of its backlog on its own day, however many pushes it takes', async () => {
    const node = hub.app.services.nodes.add('store-week', [AIRPORT, DEMO_IDS.storeCentral]);
    const start = hub.clock.now();
    await contact(hub, node);
    hub.clock.advance(7 * DAY_MS);
    // Each day, 900 points by hand to Eva (the limit 1,000 a customer) and 360,000 of credit
    // (the node's 400,000): a week of it on one day would pass both eight times over.
    let seq = 0;
    const evaBefore = points(hub, EVA);
    for (let day = 0; day <= 7; day += 1) {
      const at = start + day * DAY_MS;
      const commands = [
        command(node, (seq += 1), 'points.assign', { body: { customer_id: EVA, amount: 900 } }, at),
        ...madeUp
          .slice(0, 40)
          .map((customerId) => command(node, (seq += 1), 'credits.deposit', { body: { customer_id: customerId, amount: 9_000 } }, at)),
      ];
      const results = await push(hub, node, 'week', commands);
      expect(results.filter((result) => result.status !== 'applied')).toEqual([]);
    }
    expect(points(hub, EVA)).toBe(evaBefore + 8 * 900_000);
    expect(count(hub, "SELECT count(*) AS n FROM held_commands WHERE node_id = (SELECT id FROM nodes WHERE name = 'store-week')")).toBe(0);
    for (let day = 0; day <= 7; day += 1) {
      expect(nodeDay(hub, node, dayOf(hub, start + day * DAY_MS))).toMatchObject({ credit_created_minor: 360_000_00, points_created_milli: 900_000 });
    }
  });

  it('counts on its last contact day what a node claims of the days before it, so no day is an allowance twice', async () => {
    const node = hub.app.services.nodes.add('store-late', [AIRPORT, DEMO_IDS.storeCentral]);
    const today = hub.clock.now();
    await contact(hub, node);
    let seq = 0;
    const assign = (amount: number, at: number) => command(node, (seq += 1), 'points.assign', { body: { customer_id: PETR, amount } }, at);
    const first = await push(hub, node, 'late', [assign(900, today), assign(200, today - 3 * DAY_MS)]);
    expect(first.map((result) => result.status)).toEqual(['applied', 'held']);
    expect(first[1]!.reason).toBe(
      `1100 points given or taken by hand for customer ${PETR} on ${dayOf(hub, today)} (made on ${dayOf(hub, today - 3 * DAY_MS)}, counted on its node's last contact day), past this node's limit`,
    );
    // After 360,000 of credit today, ten deposits of 9,000 claimed two days back: the fifth passes 400,000.
    const todays = madeUp
      .slice(50, 90)
      .map((customerId) => command(node, (seq += 1), 'credits.deposit', { body: { customer_id: customerId, amount: 9_000 } }, today));
    expect((await push(hub, node, 'late', todays)).every((result) => result.status === 'applied')).toBe(true);
    const deposits = madeUp
      .slice(0, 10)
      .map((customerId) => command(node, (seq += 1), 'credits.deposit', { body: { customer_id: customerId, amount: 9_000 } }, today - 2 * DAY_MS));
    const late = await push(hub, node, 'late', deposits);
    expect(late.map((result) => result.status)).toEqual([...Array(4).fill('applied'), ...Array(6).fill('held')]);
    expect(late[4]!.reason).toBe(
      `credit created: 405000 on ${dayOf(hub, today)} (made on ${dayOf(hub, today - 2 * DAY_MS)}, counted on its node's last contact day), past this node's daily total credit_created of 400000`,
    );
    expect(nodeDay(hub, node, dayOf(hub, today))).toMatchObject({ credit_created_minor: 396_000_00 });
    expect(nodeDay(hub, node, dayOf(hub, today - 2 * DAY_MS))).toBeUndefined();
    // A day on, heard from again: the compaction forgets the day before its last contact, which
    // it can no longer count on, and a claim of that day counts on the new one.
    hub.clock.advance(DAY_MS);
    await contact(hub, node);
    expect((await createFeedCompaction(hub.app.node, hub.config, hub.clock.now).run()).limit_days_deleted).toBeGreaterThan(0);
    expect(nodeDay(hub, node, dayOf(hub, today))).toBeUndefined();
    const again = await push(hub, node, 'late', [assign(900, today), assign(200, today)]);
    expect(again.map((result) => result.status)).toEqual(['applied', 'held']);
    expect(again[1]!.reason).toContain(`on ${dayOf(hub, hub.clock.now())} (made on ${dayOf(hub, today)}, counted on its node's last contact day)`);
  });
});
