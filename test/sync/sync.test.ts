/**
 * Store↔hub sync over real HTTP between real nodes (each its own server and SQLite file),
 * rounds driven by the test: bootstrap, push exactly once, pull, the hub going away and
 * coming back, points and credit spent twice offline, and a command the hub rejects.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/auth/secrets.js';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { settleStates } from '../../src/loyalty/state-settling.js';
import { bootstrapIfNeeded } from '../../src/sync/store/bootstrap.js';
import { checksumTables } from '../../src/sync/protocol/checksum.js';
import { replicatedTables } from '../../src/sync/replicated-tables.js';
import { Retention } from '../../src/sync/store/retention.js';
import { scopeOf, type Scope } from '../../src/sync/protocol/scopes.js';
import { readSyncStatus } from '../../src/sync/status.js';
import { StorageReader } from '../../src/sync/storage-status.js';
import { createFeedCompaction } from '../../src/root/hub.js';
import { createStoreSync } from '../../src/root/store.js';
import { waitFor } from '../support/wait.js';
import { schemaShape } from '../support/schema-shape.js';
import { createCustomer, person } from '../support/customers-fixtures.js';
import { call, demoPosLogin, demoToken, startTestServer, type TestServer } from '../support/server.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../support/in-process-cluster.js';

type Store = InProcessStore;

let cluster: InProcessCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const startCluster = (stores = 2) => startInProcessCluster({ stores });

const count = (server: TestServer, sql: string) => (server.app.node.db.prepare(sql).get() as { n: number }).n;
/** Each scope's rows, counted one by one. */
function countedScopes(server: TestServer): Record<Scope, number> {
  const scopes: Record<Scope, number> = { chain: 0, store: 0, 'customer-state': 0, origin: 0 };
  for (const table of replicatedTables(server.app.node.db)) {
    const scope = scopeOf(table);
    if (scope) scopes[scope] += count(server, `SELECT count(*) AS n FROM ${table}`);
  }
  return scopes;
}
const assign = (store: Store, customerId: string, amount: number) =>
  call('POST', `${store.server.api('enterprise')}/points/actions/assign-points`, { headers: store.auth, body: { customer_id: customerId, amount } });
const reduce = (store: Store, customerId: string, amount: number) =>
  call('POST', `${store.server.api('enterprise')}/points/actions/reduce-points`, { headers: store.auth, body: { customer_id: customerId, amount } });
/** send-purchase at a store: the demo customer's bill of three bags of espresso beans (300), with `bill`'s fields over it. */
const send = (store: Store, billId: string, bill: Record<string, unknown>) =>
  call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: store.auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: demoCredentials.customer_card,
      bill: {
        bill_id: billId,
        payment_time: '2026-11-20 10:00:00',
        total_price: 300,
        bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 3, price: 100, paid_amount: 300, bill_item_id: 1 }],
        ...bill,
      },
    },
  });
const balance = (server: TestServer, customerId: string) => server.app.node.balances.balancesAt(customerId, Date.now()).pointsMilli / 1000;

describe('sync between a hub and stores', () => {
  it('a new store bootstraps the hub data, so a POS logs in there with the hub users', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    expect(count(store.server, 'SELECT count(*) AS n FROM customers')).toBe(3);
    expect(checksumTables(store.server.app.node.db).users).toEqual(checksumTables(cluster.hub.app.node.db).users);
    // The fresh store loaded the snapshot without its secondary indexes and built them after
    // (src/sync/store/bootstrap-indexes.ts): its schema is the hub's, on either engine.
    expect(schemaShape(store.server.app.node.db)).toEqual(schemaShape(cluster.hub.app.node.db));
    expect(store.server.app.node.db.prepare("SELECT value FROM meta WHERE key = 'sync.bootstrap_indexes'").get()).toBeUndefined();
  });

  it('writes at one store reach the hub exactly once, and the other store after its pull', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    expect((await assign(a, DEMO_IDS.customerEva, 15)).status).toBe(204);
    expect((await assign(a, DEMO_IDS.customerJana, 1)).status).toBe(204);
    expect(await cluster.round(a)).toMatchObject({ ok: true, pushed: 2, rejected: 0 });
    expect(count(cluster.hub, 'SELECT count(*) AS n FROM applied_commands')).toBe(2);
    expect(await cluster.round(b)).toMatchObject({ ok: true });
    expect(balance(b.server, DEMO_IDS.customerEva)).toBe(15);
    expect(balance(cluster.hub, DEMO_IDS.customerEva)).toBe(15);
  });

  it("the hub's feed holds one change of each customer state, the newest: a store behind several of its publishes pulls that one, and the balance", async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const hub = cluster.hub;
    const before = balance(hub, DEMO_IDS.customerEva);
    const stateChanges = () =>
      count(hub, `SELECT count(*) AS n FROM changes WHERE entity = 'customer_states' AND entity_id = '${DEMO_IDS.customerEva}'`);
    for (const amount of [1, 2, 3]) {
      await assign(a, DEMO_IDS.customerEva, amount);
      expect(await cluster.round(a)).toMatchObject({ ok: true, pushed: 1 });
      expect(stateChanges()).toBe(1);
    }
    expect(await cluster.round(b)).toMatchObject({ ok: true });
    expect(balance(b.server, DEMO_IDS.customerEva)).toBe(before + 6);
  });

  it('a state published with a bill in its tail settles, once every store has pushed past it, to lots alone at the hub and at the stores', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const hub = cluster.hub;
    const settle = () => settleStates(hub.app.node.states!, hub.app.node.writes);
    // The demo's states, published before any store was there, settle once both have
    // bootstrapped (here, or by the hub's own timer: the counts it returns are not asserted).
    await settle();
    const before = balance(cluster.hub, DEMO_IDS.customerEva);
    const tail = (server: TestServer) => {
      const state = server.app.node.db.prepare('SELECT tail, credit_tail FROM customer_states WHERE id = ?').get(DEMO_IDS.customerEva) as {
        tail: string;
        credit_tail: string;
      };
      return JSON.parse(state.tail).length + JSON.parse(state.credit_tail).length;
    };
    await assign(a, DEMO_IDS.customerEva, 15);
    expect(await cluster.round(a)).toMatchObject({ ok: true, pushed: 1 });
    // Store B reported at its bootstrap, not past the bill yet: the hub holds it in the tail.
    expect(tail(cluster.hub)).toBe(1);
    await settle();
    expect(tail(cluster.hub)).toBe(1);

    for (const store of [b, b, a]) expect(await cluster.round(store)).toMatchObject({ ok: true });
    await settle();
    expect(count(cluster.hub, 'SELECT count(*) AS n FROM customer_state_tails')).toBe(0);
    for (const store of [a, b]) expect(await cluster.round(store)).toMatchObject({ ok: true });
    for (const server of [cluster.hub, a.server, b.server]) {
      expect(tail(server)).toBe(0);
      expect(balance(server, DEMO_IDS.customerEva)).toBe(before + 15);
    }
  });

  it('a card with more facts after the horizon than a ledger row lists (a store silent meanwhile) reads them from its records on every node, then from a list again once the state settles', async () => {
    cluster = await startCluster(3);
    const [a, b, silent] = cluster.stores as [Store, Store, Store];
    const hub = cluster.hub;
    const settle = () => settleStates(hub.app.node.states!, hub.app.node.writes);
    await settle();
    const before = balance(hub, DEMO_IDS.customerEva);
    const pointFacts = (server: TestServer) =>
      server.app.node.db.prepare('SELECT point_facts FROM customer_ledgers WHERE customer_id = ?').pluck().get(DEMO_IDS.customerEva) as string;
    // The silent store reported at its bootstrap and not since: the horizon stays before these.
    for (let n = 0; n < 70; n += 1) expect((await assign(a, DEMO_IDS.customerEva, 1)).status).toBe(204);
    expect(pointFacts(a.server)).toBe('records');
    for (const store of [a, b]) expect(await cluster.round(store)).toMatchObject({ ok: true });
    expect(pointFacts(hub)).toBe('records');
    for (const server of [hub, a.server, b.server]) expect(balance(server, DEMO_IDS.customerEva)).toBe(before + 70);
    // `sync status` on the hub names the store holding the horizon back; /health only counts.
    expect(new StorageReader(hub.app.node.db, hub.config).read(hub.clock.now).settling).toMatchObject({ held_by: 'store-2', unsettled_states: 1 });
    expect((await call('GET', `${hub.url}/health`)).body.storage.settling).toMatchObject({
      reported_by: null,
      held_by: null,
      unsettled_states: 1,
      oldest_unsettled_age_seconds: expect.any(Number),
    });

    for (const store of [silent, a, b]) expect(await cluster.round(store)).toMatchObject({ ok: true });
    await settle();
    expect(new StorageReader(hub.app.node.db, hub.config).read(hub.clock.now).settling).toMatchObject({
      unsettled_states: 0,
      oldest_unsettled_age_seconds: null,
    });
    for (const store of [a, b]) expect(await cluster.round(store)).toMatchObject({ ok: true });
    for (const server of [hub, a.server]) expect(pointFacts(server)).toBe('[]');
    for (const server of [hub, a.server, b.server, silent.server]) expect(balance(server, DEMO_IDS.customerEva)).toBe(before + 70);
  });

  it("a store retired at the hub holds the customer states' horizon back no more: states settle without it, and its secret is refused", async () => {
    cluster = await startCluster();
    const [a, closed] = cluster.stores as [Store, Store];
    const hub = cluster.hub;
    const settle = () => settleStates(hub.app.node.states!, hub.app.node.writes);
    const settling = () => new StorageReader(hub.app.node.db, hub.config).read(hub.clock.now).settling;
    await settle();
    const before = balance(hub, DEMO_IDS.customerEva);
    await assign(a, DEMO_IDS.customerEva, 5);
    expect(await cluster.round(a)).toMatchObject({ ok: true, pushed: 1 });
    await settle();
    // The closed store reported at its bootstrap, before the bill.
    expect(settling()).toMatchObject({ held_by: 'store-1', unsettled_states: 1 });

    // Retired, it holds nothing back: store-0's report is the horizon, past the bill, which the next settling settles.
    hub.app.services.nodes.retire('store-1');
    expect(settling()).toMatchObject({ held_by: null, unsettled_states: 1 });
    await settle();
    expect(settling()).toMatchObject({ held_by: null, unsettled_states: 0 });
    expect(balance(hub, DEMO_IDS.customerEva)).toBe(before + 5);
    expect(await cluster.round(closed)).toMatchObject({ ok: false, error: expect.stringContaining('401') });
  });

  it('a store reports at its bootstrap what it has pushed through, so that states published before its first pull count it in their horizon', async () => {
    cluster = await startCluster(0);
    const credentials = cluster.hub.app.services.nodes.add('store-late', [DEMO_IDS.storeCentral, DEMO_IDS.storeAirport]);
    const server = await startTestServer({
      demo: false,
      config: { 'hub.url': cluster.hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
    });
    const sync = createStoreSync(server.app.node, server.config, server.clock.now)!;
    try {
      expect(count(cluster.hub, 'SELECT count(*) AS n FROM sync_node_clocks')).toBe(0);
      expect(await bootstrapIfNeeded(sync)).toBe(true);
      expect(count(cluster.hub, 'SELECT count(*) AS n FROM sync_node_clocks')).toBe(1);
    } finally {
      await sync.client.close();
      await server.close();
    }
  });

  it('a store keeps its own facts until the hub has them, the customer state covers them and they are older than retention.local_days; the balances stay', async () => {
    // Each push applied in one turn at the hub: a customer's state published again in a later turn
    // of the same push replaces its earlier feed row, and the feed's size from rowids (below) is
    // exact only where no row went from the middle.
    cluster = await startInProcessCluster({ stores: 1, hubConfig: { 'sync_limits.push_turn_ms': 1000 } });
    const store = cluster.stores[0]!;
    const records = () => count(store.server, `SELECT count(*) AS n FROM point_records WHERE customer_id = '${DEMO_IDS.customerEva}'`);
    const before = balance(store.server, DEMO_IDS.customerEva);
    const kept = records();
    await assign(store, DEMO_IDS.customerEva, 10);
    await assign(store, DEMO_IDS.customerEva, 20);
    expect(records()).toBe(kept + 2);

    // Old enough but not yet pushed: kept, and counted once.
    store.server.clock.advance(36 * 86_400_000);
    const offline = await store.sync.retention.run(1000);
    expect(records()).toBe(kept + 2);
    expect(balance(store.server, DEMO_IDS.customerEva)).toBe(before + 30);
    // /health counts them as the backlog, with every other own fact older than the cutoff.
    const cutoff = new Date(store.server.clock.now() - 35 * 86_400_000).toISOString();
    const old = replicatedTables(store.server.app.node.db)
      .filter((table) => scopeOf(table) === 'origin')
      .reduce((sum, table) => sum + count(store.server, `SELECT count(*) AS n FROM ${table} WHERE last_change < '${cutoff}'`), 0);
    expect(old).toBeGreaterThanOrEqual(2);
    expect((await call('GET', `${store.server.url}/health`)).body.storage.retention.backlog_rows).toBe(old);

    // Pushed and covered by the state the hub published, yet younger than 35 days: kept.
    store.server.clock.advance(-36 * 86_400_000);
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 2 });
    expect((await store.sync.retention.run(1000)).deleted).toBe(0);
    expect(records()).toBe(kept + 2);
    // So are the commands the hub applied, to be sent again to a hub restored from a backup.
    const applied = () => count(store.server, 'SELECT count(*) AS n FROM acknowledged_commands');
    expect(applied()).toBe(2);

    // 36 days on: the facts go, and the commands; the balance, now all the hub's state, is what it was.
    store.server.clock.advance(36 * 86_400_000);
    const outcome = await store.sync.retention.run(1000);
    expect(outcome.deleted).toBeGreaterThanOrEqual(2);
    expect(outcome.deleted).toBeGreaterThan(offline.deleted);
    expect(records()).toBe(0);
    expect(applied()).toBe(0);
    expect(balance(store.server, DEMO_IDS.customerEva)).toBe(before + 30);
    expect(balance(cluster.hub, DEMO_IDS.customerEva)).toBe(before + 30);
    const health = await call('GET', `${store.server.url}/health`);
    expect(health.body.storage).toMatchObject({
      scopes: { chain: expect.any(Number), 'customer-state': expect.any(Number), origin: 0 },
      feed_rows: 0,
      retention: { backlog_rows: 0, last_run_at: new Date(store.server.clock.now()).toISOString(), deleted_total: outcome.deleted + offline.deleted },
    });
    expect(health.body.storage.scopes['customer-state']).toBeGreaterThan(0);
    const hubHealth = await call('GET', `${cluster.hub.url}/health`);
    // The hub's stores are counted, not named, to whoever reaches /health.
    expect(hubHealth.body.sync).toMatchObject({ stores: 1, longest_silence_seconds: expect.any(Number) });
    expect(JSON.stringify(hubHealth.body)).not.toContain('store-0');
    expect(hubHealth.body.storage).toMatchObject({ compaction: { last_run_at: null, floor: 0 } });
    expect(hubHealth.body.storage.scopes.origin).toBeGreaterThan(0);
    // Sized from rowids on the hub (src/sync/storage-status.ts): exact where no row went from the middle, as here.
    expect(hubHealth.body.storage.scopes).toEqual(countedScopes(cluster.hub));
    expect(hubHealth.body.storage.feed_rows).toBe(count(cluster.hub, 'SELECT count(*) AS n FROM changes'));
  });

  it('retention reads a table a window of rows at a time, and a run stopped by its budget leaves off where the next goes on', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    const records = () => count(store.server, `SELECT count(*) AS n FROM point_records WHERE customer_id = '${DEMO_IDS.customerEva}'`);
    const before = balance(store.server, DEMO_IDS.customerEva);
    for (const points of [10, 20, 30, 40, 50]) await assign(store, DEMO_IDS.customerEva, points);
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 5 });
    store.server.clock.advance(36 * 86_400_000);

    // Windows of one row and no budget: each run reads one window. A run that began again
    // from the first table would stop at the empty purchases table every time.
    const { db, state, nodeId } = store.sync;
    const retention = new Retention({ db, state, nodeId, keepMs: 35 * 86_400_000, clock: store.server.clock.now, windowRows: 1 });
    const deletedBy: number[] = [];
    while (records() > 0 && deletedBy.length < 50) deletedBy.push((await retention.run(0)).deleted);
    expect(records()).toBe(0);
    expect(Math.max(...deletedBy)).toBe(1);
    expect(deletedBy.reduce((sum, deleted) => sum + deleted, 0)).toBeGreaterThanOrEqual(5);
    expect(balance(store.server, DEMO_IDS.customerEva)).toBe(before + 150);
    expect(balance(cluster.hub, DEMO_IDS.customerEva)).toBe(before + 150);
  });

  it('the hub answers while it compacts a long feed: a run reads and deletes a slice of seqs a turn', async () => {
    cluster = await startCluster(0);
    const hub = cluster.hub;
    const db = hub.app.node.db;
    // 60,000 changes of rows stores never hold, marked eight days old: all of them go.
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
             INSERT INTO changes (entity, entity_id, op, row, hlc) SELECT 'user_sessions', 's' || i, 'insert', '{}', '0001' FROM n`);
    const lastSeq = count(hub, 'SELECT max(seq) AS n FROM changes');
    db.prepare('INSERT INTO sync_feed_marks (marked_at, seq) VALUES (?, ?)').run(new Date(hub.clock.now() - 8 * 86_400_000).toISOString(), lastSeq);
    db.prepare("INSERT INTO recommendation_state (key, value) VALUES ('cursor', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(lastSeq),
    );
    const order: string[] = [];
    const compacted = createFeedCompaction(hub.app.node, hub.config, hub.clock.now)
      .run()
      .then((outcome) => {
        order.push('compacted');
        return outcome;
      });
    const health = call('GET', `${hub.url}/health`).then((answer) => {
      order.push('answered');
      return answer;
    });
    expect((await health).status).toBe(200);
    expect((await compacted).deleted).toBeGreaterThanOrEqual(60000);
    expect(order).toEqual(['answered', 'compacted']);
  });

  it('the hub compacts its feed; a store whose cursor is older than the compacted part bootstraps again by itself and converges', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const hub = cluster.hub;
    const compaction = createFeedCompaction(hub.app.node, hub.config, hub.clock.now);
    const rename = (name: string) => hub.app.node.writes.write(null, (tx) => tx.update('customers', DEMO_IDS.customerPetr, { first_name: name }));
    // A product group both stores hold, which the hub then deletes: its tombstone will be compacted away.
    const doomed = hub.app.node.newId();
    hub.app.node.writes.write(null, (tx) => tx.insert('product_groups', { id: doomed, name: 'Doomed' }));
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    expect(count(b.server, `SELECT count(*) AS n FROM product_groups WHERE id = '${doomed}'`)).toBe(1);
    hub.app.node.writes.write(null, (tx) => tx.remove('product_groups', doomed));
    for (const name of ['One', 'Two', 'Three']) rename(name);
    await assign(a, DEMO_IDS.customerEva, 5);
    expect((await cluster.round(a)).ok).toBe(true);
    // Compaction keeps what the hub's model builder (on its own timer) has not read yet, and the
    // builder writes its rows to the feed: the feed's end is taken once the builder is idle, having
    // read all of the feed and published every row it marked. A cursor at the feed's end alone is
    // not idle: the builder reads its own rows between two publishing steps of its first build.
    const modelState = (key: string) =>
      hub.app.node.db.prepare('SELECT value FROM recommendation_state WHERE key = ?').pluck().get(key) as string | undefined;
    const builderIdle = () =>
      modelState('rebuilt_to') === undefined &&
      Number(modelState('cursor') ?? -1) >= count(hub, 'SELECT max(seq) AS n FROM changes') &&
      count(hub, 'SELECT count(*) AS n FROM recommendation_pending') === 0;
    await waitFor('the model builder to be idle', builderIdle);
    // Store A pulls what the builder wrote, so that it stands at the feed's end.
    expect((await cluster.round(a)).ok).toBe(true);
    const lastSeq = count(hub, 'SELECT max(seq) AS n FROM changes');
    expect(a.sync.state.number('cursor')).toBe(lastSeq);
    expect(await compaction.run()).toMatchObject({ deleted: 0, floor: 0 });

    // Eight days on, past sync.feed_retention_days (7): the three renames keep their newest,
    // Eva's point record (a store's fact) leaves the feed, her state stays.
    hub.clock.advance(8 * 86_400_000);
    rename('Four');
    const compacted = await compaction.run();
    expect(compacted.floor).toBe(lastSeq);
    expect(compacted.deleted).toBeGreaterThanOrEqual(3);
    expect(
      count(hub, `SELECT count(*) AS n FROM changes WHERE seq <= ${lastSeq} AND entity = 'customers' AND entity_id = '${DEMO_IDS.customerPetr}'`),
    ).toBe(0);
    expect(count(hub, `SELECT count(*) AS n FROM changes WHERE seq <= ${lastSeq} AND entity = 'point_records'`)).toBe(0);
    expect(count(hub, `SELECT count(*) AS n FROM changes WHERE entity = 'customer_states' AND entity_id = '${DEMO_IDS.customerEva}'`)).toBe(1);

    // Store A pulled past the floor and goes on; store B, behind it, is told 410 and bootstraps
    // again, sweeping the group the hub deleted and keeping the customer it made meanwhile.
    expect(await cluster.round(a)).toMatchObject({ ok: true });
    expect(await cluster.round(b)).toMatchObject({ ok: false, error: expect.stringContaining('sync_cursor_expired_exception') });
    const made = await call('POST', `${b.server.api('enterprise')}/customers`, {
      headers: b.auth,
      body: { customer: { personal_information: { first_name: 'Made', last_name: 'Meanwhile' } } },
    });
    expect(made.status).toBe(201);
    expect(await cluster.round(b)).toMatchObject({ ok: true, bootstrapped: true, pushed: 1 });
    expect(count(b.server, `SELECT count(*) AS n FROM product_groups WHERE id = '${doomed}'`)).toBe(0);
    expect(count(hub, `SELECT count(*) AS n FROM customers WHERE id = '${made.body.data.customer_id as string}'`)).toBe(1);
    expect((await cluster.round(a)).ok).toBe(true);
    const hubSums = checksumTables(hub.app.node.db);
    for (const store of [a, b]) expect(checksumTables(store.server.app.node.db)).toEqual(hubSums);
    expect(count(b.server, `SELECT count(*) AS n FROM customers WHERE first_name = 'Four'`)).toBe(1);
    expect(balance(b.server, DEMO_IDS.customerEva)).toBe(balance(hub, DEMO_IDS.customerEva));
  });

  it('a cancellation at store B of a bill sold at store A reverses it, online (the original read from the hub) and offline (completed by the hub), with the same balance everywhere', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const everywhere = () =>
      [cluster!.hub, a.server, b.server].map((server) => server.app.node.balances.balancesAt(DEMO_IDS.customerJana, Date.now()));
    const before = everywhere()[0]!;
    for (const number of ['N-7', 'N-8']) expect((await send(a, `A-${number}`, { bill_number: number })).status).toBe(201);
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    const sold = everywhere();
    expect(sold[1]).toEqual(sold[0]);
    expect(sold[2]).toEqual(sold[0]);
    expect(sold[0]!.pointsMilli).toBeGreaterThan(before.pointsMilli);
    expect(count(b.server, "SELECT count(*) AS n FROM purchases WHERE bill_number = 'N-7'")).toBe(0);

    // Online: store B reads the original from the hub, which serves it without its customer;
    // the hub takes its points back when it runs the return again.
    expect((await send(b, 'B-C7', { canceled: true, bill_number: 'N-7', total_price: -300 })).status).toBe(201);
    expect(count(b.server, "SELECT count(*) AS n FROM purchases WHERE external_purchase_id = 'B-C7' AND cancels_purchase_id IS NOT NULL")).toBe(1);
    expect((await cluster.round(b)).ok).toBe(true);
    expect(count(cluster.hub, 'SELECT count(*) AS n FROM point_records WHERE linked_point_id IS NOT NULL')).toBeGreaterThan(0);
    // A second cancellation of it, anywhere, is refused with the first's id.
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    const again = await send(a, 'A-C7', { canceled: true, bill_number: 'N-7', total_price: -300 });
    expect(again.status).toBe(400);
    expect(again.body.error.error_data.invalid_params[0]).toMatchObject({ name: 'bill.bill_number', reason: 'already_exists', value: 'N-7' });

    // Offline: store B records the cancellation; the hub reverses the bill when it arrives.
    await cluster.stopHub();
    expect((await send(b, 'B-C8', { canceled: true, bill_number: 'N-8', total_price: -300 })).status).toBe(201);
    await cluster.restartHub();
    for (const store of [b, a, b]) expect((await cluster.round(store)).ok).toBe(true);
    const after = everywhere();
    expect(after[0]).toEqual({ pointsMilli: before.pointsMilli, creditMinor: before.creditMinor });
    expect(after[1]).toEqual(after[0]);
    expect(after[2]).toEqual(after[0]);
    expect(
      count(cluster.hub, "SELECT count(*) AS n FROM purchases WHERE bill_number = 'N-8' AND canceled = 1 AND cancels_purchase_id IS NOT NULL"),
    ).toBe(1);
  });

  it('a push whose answer was lost is acknowledged again without applying twice', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    await assign(store, DEMO_IDS.customerEva, 10);
    const db = store.server.app.node.db;
    const queued = db.prepare('SELECT * FROM outbox').all() as Record<string, unknown>[];
    expect(queued).toHaveLength(1);
    await cluster.round(store);
    expect(count(store.server, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(0);
    // As if the hub's answer never arrived: the store still holds the command as pending.
    const columns = Object.keys(queued[0]!);
    db.prepare(`INSERT INTO outbox (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`).run(queued[0]);
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 1, rejected: 0 });
    expect(count(cluster.hub, "SELECT count(*) AS n FROM point_records WHERE customer_id = '" + DEMO_IDS.customerEva + "'")).toBe(1);
    expect(count(cluster.hub, 'SELECT count(*) AS n FROM applied_commands')).toBe(1);
  });

  it("the hub forgets a command's result after sync.feed_retention_days; a store whose answer was lost and comes back later pushes it again in a new generation, counted once", async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    const hub = cluster.hub;
    await assign(store, DEMO_IDS.customerEva, 10);
    const db = store.server.app.node.db;
    const queued = db.prepare('SELECT * FROM outbox').all() as Record<string, unknown>[];
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 1 });
    // A rejected command's result, which stays as the hub's record of what a store was refused.
    hub.app.node.db
      .prepare(
        "INSERT INTO applied_commands (command_id, node_id, generation, seq, status, reason, applied_at) VALUES ('refused', 'n', 'g', 1, 'rejected', 'why', ?)",
      )
      .run(new Date(hub.clock.now()).toISOString());
    const compaction = createFeedCompaction(hub.app.node, hub.config, hub.clock.now);
    expect(await compaction.run()).toMatchObject({ results_deleted: 0 });
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE status = 'applied'")).toBe(1);

    hub.clock.advance(8 * 86_400_000);
    expect(await compaction.run()).toMatchObject({ results_deleted: 1 });
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE status = 'applied'")).toBe(0);
    expect(count(hub, "SELECT count(*) AS n FROM applied_commands WHERE status = 'rejected'")).toBe(1);
    const hubBalance = balance(hub, DEMO_IDS.customerEva);
    const storeBalance = balance(store.server, DEMO_IDS.customerEva);
    const generation = () => db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string;
    const first = generation();
    // As if the hub's answer never arrived: the store still holds the command as pending.
    const columns = Object.keys(queued[0]!);
    db.prepare(`INSERT INTO outbox (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`).run(queued[0]);
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 1, rejected: 0 });
    expect(generation()).not.toBe(first);
    expect(count(hub, `SELECT count(*) AS n FROM point_records WHERE customer_id = '${DEMO_IDS.customerEva}' AND points_milli = 10000`)).toBe(1);
    expect(balance(hub, DEMO_IDS.customerEva)).toBe(hubBalance);
    expect(balance(store.server, DEMO_IDS.customerEva)).toBe(storeBalance);
    expect(count(store.server, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(0);
  });

  it('a cancellation the hub completed, pushed again after the hub forgot its result, is not reversed twice nor taken back at its store', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    expect((await send(a, 'A-N-9', { bill_number: 'N-9' })).status).toBe(201);
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    // Offline, store B records the cancellation without its original; the hub completes it.
    await cluster.stopHub();
    expect((await send(b, 'B-C9', { canceled: true, bill_number: 'N-9', total_price: -300 })).status).toBe(201);
    const queued = b.server.app.node.db.prepare('SELECT * FROM outbox').all() as Record<string, unknown>[];
    await cluster.restartHub();
    for (const store of [b, a, b]) expect((await cluster.round(store)).ok).toBe(true);
    const hub = cluster.hub;
    const compaction = createFeedCompaction(hub.app.node, hub.config, hub.clock.now);
    await compaction.run();
    hub.clock.advance(8 * 86_400_000);
    expect((await compaction.run()).results_deleted).toBeGreaterThanOrEqual(2);
    const janaAtHub = () => hub.app.node.balances.balancesAt(DEMO_IDS.customerJana, hub.clock.now());
    const completed = janaAtHub();

    // As if the hub's answer to the cancellation never reached store B.
    const columns = Object.keys(queued[0]!);
    b.server.app.node.db.prepare(`INSERT INTO outbox (${columns.join(', ')}) VALUES (${columns.map((c) => '@' + c).join(', ')})`).run(queued[0]);
    expect(await cluster.round(b)).toMatchObject({ ok: true, pushed: 1, rejected: 0 });
    expect(janaAtHub()).toEqual(completed);
    expect(count(b.server, "SELECT count(*) AS n FROM purchases WHERE external_purchase_id = 'B-C9'")).toBe(1);
    expect(count(hub, "SELECT count(*) AS n FROM purchases WHERE bill_number = 'N-9' AND canceled = 1 AND cancels_purchase_id IS NOT NULL")).toBe(1);
  });

  it('while the hub is down the stores keep taking writes; when it returns everything arrives once and all nodes agree', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    await cluster.stopHub();
    for (const amount of [1, 2, 3]) expect((await assign(a, DEMO_IDS.customerEva, amount)).status).toBe(204);
    expect((await assign(b, DEMO_IDS.customerPetr, 4)).status).toBe(204);
    expect((await assign(b, DEMO_IDS.customerJana, 1)).status).toBe(204);
    expect((await cluster.round(a)).ok).toBe(false);
    expect(count(a.server, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(3);

    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    expect(count(cluster.hub, 'SELECT count(*) AS n FROM applied_commands')).toBe(5);
    expect(balance(b.server, DEMO_IDS.customerEva)).toBe(6);
    expect(balance(a.server, DEMO_IDS.customerPetr)).toBe(84);
    const hubSums = checksumTables(cluster.hub.app.node.db);
    for (const store of [a, b]) {
      const sums = checksumTables(store.server.app.node.db);
      for (const table of ['customers', 'point_records', 'users', 'rewards']) expect(sums[table]).toEqual(hubSums[table]);
    }
  });

  it('the same points spent in both stores while offline leave a negative balance on every node, listed as a conflict', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    await cluster.stopHub();
    // Jana holds 250 points; each store redeems 200 of them, both within the balance it knows.
    expect((await reduce(a, DEMO_IDS.customerJana, 200)).status).toBe(204);
    expect((await reduce(b, DEMO_IDS.customerJana, 200)).status).toBe(204);
    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    for (const server of [cluster.hub, a.server, b.server]) {
      expect(balance(server, DEMO_IDS.customerJana)).toBe(-150);
      const conflict = server.app.node.db.prepare("SELECT entity_id, detail FROM sync_conflicts WHERE kind = 'points_overspent'").get() as {
        entity_id: string;
        detail: string;
      };
      expect(conflict.entity_id).toBe(DEMO_IDS.customerJana);
      expect(JSON.parse(conflict.detail)).toEqual({ balance_points: -150, uncovered_points: 150 });
    }
  });

  it('the same credit spent in both stores while offline leaves a negative balance on every node, listed as a conflict', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    await cluster.stopHub();
    // Jana holds 200 CZK of credit. Each store sells her 300 CZK of beans paid with 150 of it,
    // within the balance it knows, and gives 2 % of the 150 paid in money back: 3.00.
    // Together: 200 − 150 − 150 + 3 + 3 = −94.
    const beans = { plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 3, price: 100, paid_amount: 300, bill_item_id: 1 };
    for (const [store, billId] of [
      [a, 'A-1'],
      [b, 'B-1'],
    ] as const) {
      const sent = await call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: store.auth,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1,
          card_number: demoCredentials.customer_card,
          bill: {
            bill_id: billId,
            payment_time: '2026-11-20 10:00:00',
            total_price: 300,
            bill_items: [beans],
            payment_recap: { amount_for_credit: 150 },
          },
        },
      });
      expect(sent.status).toBe(201);
    }
    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    const hubSums = checksumTables(cluster.hub.app.node.db);
    for (const server of [cluster.hub, a.server, b.server]) {
      expect(server.app.node.balances.balancesAt(DEMO_IDS.customerJana, Date.now()).creditMinor).toBe(-9400);
      const conflict = server.app.node.db.prepare("SELECT entity_id, detail FROM sync_conflicts WHERE kind = 'credit_overspent'").get() as {
        entity_id: string;
        detail: string;
      };
      expect(conflict.entity_id).toBe(DEMO_IDS.customerJana);
      expect(JSON.parse(conflict.detail)).toEqual({ balance_credit: -94 });
      expect(checksumTables(server.app.node.db).customer_states).toEqual(hubSums.customer_states);
    }
  });

  it('the same credit reduced by hand in both stores while offline is listed as a conflict on every node, where the overview shows the negative balance', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    await cluster.stopHub();
    // Jana holds 200 CZK of credit; each store reduces 150 of it, within the balance it knows: 200 − 300 = −100.
    for (const store of [a, b]) {
      const reduced = await call('POST', `${store.server.api('enterprise')}/credits/actions/reduce-credits`, {
        headers: store.auth,
        body: { customer_id: DEMO_IDS.customerJana, amount: 150, partner_id: 'P-1' },
      });
      expect(reduced.status, JSON.stringify(reduced.body)).toBe(201);
    }
    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    for (const server of [cluster.hub, a.server, b.server]) {
      const conflict = server.app.node.db.prepare("SELECT entity_id, detail FROM sync_conflicts WHERE kind = 'credit_overspent'").get() as {
        entity_id: string;
        detail: string;
      };
      expect(conflict.entity_id).toBe(DEMO_IDS.customerJana);
      expect(JSON.parse(conflict.detail)).toEqual({ balance_credit: -100 });
      const overview = await call('GET', `${server.api('enterprise')}/wallet/actions/credits-overview?customer_id=${DEMO_IDS.customerJana}`, {
        headers: server === cluster.hub ? await demoPosLogin(server) : (server === a.server ? a : b).auth,
      });
      expect(overview.body.data.available_credits).toBe(-100);
    }
  });

  it('a voucher made at one store reaches the other; used in both while offline, it is listed on every node and its points are spent once', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    // Jana's 250 points buy a free cappuccino (100 points) at store a.
    const created = await call('POST', `${a.server.api('enterprise')}/rewards/de000000000000000000000601/actions/create-voucher`, {
      headers: a.auth,
      body: { customer_id: DEMO_IDS.customerJana, code: 'CAPPU-1' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const voucherId = created.body.data.voucher_id as string;
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    expect(count(b.server, `SELECT count(*) AS n FROM vouchers WHERE id = '${voucherId}'`)).toBe(1);
    await cluster.stopHub();
    const cappuccino = { plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 0, bill_item_id: 1 };
    for (const [store, billId] of [
      [a, 'V-A'],
      [b, 'V-B'],
    ] as const) {
      const sent = await call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: store.auth,
        body: {
          store_id: DEMO_IDS.storeCentral,
          cashdesk_number: 1,
          card_number: demoCredentials.customer_card,
          bill: {
            bill_id: billId,
            payment_time: '2026-11-20 10:00:00',
            total_price: 0,
            bill_items: [cappuccino],
            payment_recap: { vouchers: [{ code: 'CAPPU-1' }] },
          },
        },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    for (const server of [cluster.hub, a.server, b.server]) {
      const conflict = server.app.node.db.prepare("SELECT entity_id, detail FROM sync_conflicts WHERE kind = 'voucher_applied_twice'").get() as {
        entity_id: string;
        detail: string;
      };
      expect(conflict.entity_id).toBe(voucherId);
      expect(JSON.parse(conflict.detail)).toMatchObject({ applications: 2 });
      expect(balance(server, DEMO_IDS.customerJana)).toBe(150);
    }
  });

  it('a bill that used a voucher, cancelled at another store while the hub is down, gives the voucher back on every node once the hub completes the cancellation', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const created = await call('POST', `${a.server.api('enterprise')}/rewards/de000000000000000000000601/actions/create-voucher`, {
      headers: a.auth,
      body: { customer_id: DEMO_IDS.customerJana, code: 'CAPPU-2' },
    });
    const voucherId = created.body.data.voucher_id as string;
    const cappuccino = { plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 0, bill_item_id: 1 };
    const finalBill = {
      bill_id: 'V-1',
      bill_number: 'V-1',
      payment_time: '2026-11-20 10:00:00',
      total_price: 0,
      bill_items: [cappuccino],
      payment_recap: { vouchers: [{ code: 'CAPPU-2' }] },
    };
    const sendAt = (store: Store, bill: Record<string, unknown>) =>
      call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
        headers: store.auth,
        body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: demoCredentials.customer_card, bill },
      });
    expect((await sendAt(a, finalBill)).status).toBe(201);
    for (const store of [a, b]) expect((await cluster.round(store)).ok).toBe(true);
    const applied = (server: TestServer) =>
      count(
        server,
        `SELECT count(*) AS n FROM vouchers v WHERE v.id = '${voucherId}' AND EXISTS (
      SELECT 1 FROM voucher_applications x WHERE x.voucher_id = v.id AND NOT EXISTS (SELECT 1 FROM voucher_releases r WHERE r.application_id = x.id))`,
      );
    expect(applied(b.server)).toBe(1);

    await cluster.stopHub();
    const cancelled = await sendAt(b, { ...finalBill, bill_id: 'C-V-1', canceled: true });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(201);
    await cluster.restartHub();
    for (const store of [b, a, b]) expect((await cluster.round(store)).ok).toBe(true);
    for (const server of [cluster.hub, a.server, b.server]) expect(applied(server)).toBe(0);
    const again = await sendAt(a, { ...finalBill, bill_id: 'V-2', bill_number: 'V-2' });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('an operation the hub cannot take as it stands is held, taken back at the store and listed on both sides, and the commands behind it still apply', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    const node = store.server.app.node;
    // A customer only this store knows (written without a command), then points for them.
    const stranger = node.newId();
    node.writes.write(null, (tx) => tx.insert('customers', { id: stranger, first_name: 'Local' }));
    await assign(store, stranger, 5);
    await assign(store, DEMO_IDS.customerEva, 7);
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 2, rejected: 0, held: 1 });
    expect(count(store.server, `SELECT count(*) AS n FROM point_records WHERE customer_id = '${stranger}'`)).toBe(0);
    // The hub does not know the customer: a fact it cannot count, held for an operator, never dropped.
    const held = node.db.prepare("SELECT detail FROM sync_conflicts WHERE kind = 'held_command'").all() as { detail: string }[];
    expect(held.map((conflict) => JSON.parse(conflict.detail) as { reason: string })).toEqual([
      expect.objectContaining({ kind: 'points.assign', reason: expect.stringContaining('customer_id: not_found') }),
    ]);
    expect(node.db.prepare('SELECT kind, status FROM unapplied_commands').all()).toEqual([{ kind: 'points.assign', status: 'held' }]);
    expect(cluster.hub.app.held!.list()).toEqual([expect.objectContaining({ kind: 'points.assign', state: 'held' })]);
    expect(count(store.server, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(0);
    expect(readSyncStatus(node.db, 'store', 'http://hub', Date.now)).toMatchObject({ outbox: { pending: 0, rejected: 1 } });
    expect(balance(cluster.hub, DEMO_IDS.customerEva)).toBe(7);
  });

  it('the hub refuses a wrong node secret (401) and a store speaking another protocol version (409)', async () => {
    cluster = await startCluster(1);
    const wrongSecret = await call('GET', `${cluster.hub.url}/sync/v1/changes?after=0`, {
      headers: { authorization: `Basic ${Buffer.from('store-0:nope').toString('base64')}`, 'x-loyaltyd-protocol': '1', 'x-loyaltyd-schema': '1' },
    });
    expect(wrongSecret.status).toBe(401);
    const secret = cluster.stores[0]!.server.config.node.secret!;
    const oldProtocol = await call('GET', `${cluster.hub.url}/sync/v1/changes?after=0`, {
      headers: {
        authorization: `Basic ${Buffer.from(`store-0:${secret}`).toString('base64')}`,
        'x-loyaltyd-protocol': '0',
        'x-loyaltyd-schema': '1',
      },
    });
    expect(oldProtocol.status).toBe(409);
    expect(oldProtocol.body.error.exception).toBe('sync_version_mismatch_exception');
  });

  it('a customer logging in at a store while the hub answers gets a session the hub made for that store alone', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const token = await demoToken(a.server);
    const login = await call('POST', `${a.server.api('customer')}/tokens/${token.tokenId}/actions/login`, {
      headers: token.headers,
      body: { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password },
    });
    expect(login.body).toEqual({ data: { customer_id: DEMO_IDS.customerJana } });
    // The hub made the session and keeps the token as store A's; A queued nothing, and its caller is logged in there at once.
    expect(a.server.app.node.db.prepare("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get()).toBe(0);
    expect(cluster.hub.app.node.db.prepare('SELECT customer_id, node_id FROM tokens WHERE id = ?').get(sha256Hex(token.tokenId))).toEqual({
      customer_id: DEMO_IDS.customerJana,
      node_id: cluster.hub.app.node.db.prepare('SELECT id FROM nodes WHERE name = ?').pluck().get(a.credentials.node_name),
    });
    const atA = await call('GET', `${a.server.api('customer')}/points`, { headers: token.headers });
    expect(atA.status).toBe(200);
    expect(atA.body.data.points.every((point: { customer_id: string }) => point.customer_id === DEMO_IDS.customerJana)).toBe(true);
    // The token stays at the node that made it: another store never holds it.
    for (const store of [a, b]) expect(await cluster.round(store)).toMatchObject({ ok: true, rejected: 0 });
    expect((await call('GET', `${b.server.api('customer')}/points`, { headers: token.headers })).status).toBe(401);
    expect(count(b.server, 'SELECT count(*) AS n FROM tokens')).toBe(0);
  });

  it('a customer logging in at a store while the hub does not answer is answered 503, and the store makes no session of its own', async () => {
    cluster = await startCluster();
    const [a] = cluster.stores as [Store, Store];
    const token = await demoToken(a.server);
    await cluster.stopHub();
    const credentials = { login_type: 'card', login_value: demoCredentials.customer_card, password: demoCredentials.customer_password };
    const login = () =>
      call('POST', `${a.server.api('customer')}/tokens/${token.tokenId}/actions/login`, { headers: token.headers, body: credentials });
    const refused = await login();
    expect(refused.status).toBe(503);
    expect(refused.body.error.detail).toContain('head office');
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await call('GET', `${a.server.api('customer')}/points`, { headers: token.headers })).status).toBe(403);
    expect(count(a.server, 'SELECT count(*) AS n FROM store_sessions')).toBe(0);
    await cluster.restartHub();
    expect((await login()).status).toBe(200);
    expect((await call('GET', `${a.server.api('customer')}/points`, { headers: token.headers })).status).toBe(200);
    // A session that exists keeps working while the hub is away; its logout waits for the hub.
    await cluster.stopHub();
    expect((await call('GET', `${a.server.api('customer')}/points`, { headers: token.headers })).status).toBe(200);
    expect((await call('POST', `${a.server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers })).status).toBe(503);
    await cluster.restartHub();
    expect((await call('POST', `${a.server.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers })).status).toBe(204);
    expect((await call('GET', `${a.server.api('customer')}/points`, { headers: token.headers })).status).toBe(403);
    expect(cluster.hub.app.node.db.prepare('SELECT customer_id FROM tokens WHERE id = ?').pluck().get(sha256Hex(token.tokenId))).toBeNull();
  });

  it('two stores registering customers with the same e-mail while the hub is down keep both, and the hub lists the one pushed later', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    await cluster.stopHub();
    const register = async (store: Store, n: number) =>
      createCustomer(store.server, await demoPosLogin(store.server), {
        customer: { personal_information: person(n, { email: 'twin@example.com' }) },
        customer_source: { customer_source_id: 'pos', external_id: `T${n}` },
      });
    const first = await register(a, 901);
    const second = await register(b, 902);
    await cluster.restartHub();
    for (const store of [a, b, a]) expect(await cluster.round(store)).toMatchObject({ ok: true, rejected: 0, held: 0 });
    for (const server of [cluster.hub, a.server, b.server]) {
      expect(server.app.node.db.prepare("SELECT id FROM customers WHERE email = 'twin@example.com' ORDER BY id").pluck().all()).toEqual(
        [first, second].sort(),
      );
    }
    const listed = cluster.hub.app.node.db.prepare("SELECT entity_id, detail FROM sync_conflicts WHERE kind = 'duplicate_email'").all() as {
      entity_id: string;
      detail: string;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.entity_id).toBe(second);
    expect(JSON.parse(listed[0]!.detail)).toMatchObject({ email: 'twin@example.com', customer_ids: [first] });
  });

  it('a password-setup mail asked for at a store is made and sent by the hub, which alone holds its secret', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    const token = await demoToken(store.server);
    const asked = await call('POST', `${store.server.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: token.headers,
      body: { email: demoCredentials.customer_email },
    });
    expect(asked.status).toBe(204);
    expect(existsSync(join(store.server.dataDir, 'mail-spool'))).toBe(false);
    expect(count(store.server, 'SELECT count(*) AS n FROM password_setup_requests')).toBe(0);
    expect(count(store.server, 'SELECT count(*) AS n FROM outbox')).toBe(0);
    const spool = join(cluster.hub.dataDir, 'mail-spool');
    const sentAt = cluster.hub.app.node.db
      .prepare('SELECT sent_at FROM password_setup_requests WHERE customer_id = ?')
      .pluck()
      .get(DEMO_IDS.customerJana);
    expect(typeof sentAt).toBe('string');
    expect(
      readdirSync(spool)
        .map((file) => readFileSync(join(spool, file), 'utf8'))
        .join(),
    ).toContain(`To: ${demoCredentials.customer_email}`);
  });

  it('a customer a till registers without a password is mailed the password-setup link by the hub, once, when the registration arrives', async () => {
    cluster = await startCluster(1);
    const store = cluster.stores[0]!;
    await cluster.stopHub();
    const customerId = await createCustomer(store.server, await demoPosLogin(store.server), {
      customer: { personal_information: person(931, { email: 'new.member@example.com' }) },
    });
    await cluster.restartHub();
    expect(await cluster.round(store)).toMatchObject({ ok: true, rejected: 0, held: 0 });
    const spool = join(cluster.hub.dataDir, 'mail-spool');
    const requests = () =>
      cluster!.hub.app.node.db.prepare('SELECT email, sent_at FROM password_setup_requests WHERE customer_id = ?').all(customerId) as {
        email: string;
        sent_at: string | null;
      }[];
    await waitFor('the mail to be sent and marked', () => requests().length === 1 && requests()[0]!.sent_at !== null);
    expect(requests()).toEqual([{ email: 'new.member@example.com', sent_at: expect.any(String) }]);
    expect(
      readdirSync(spool)
        .map((file) => readFileSync(join(spool, file), 'utf8'))
        .join(),
    ).toContain('To: new.member@example.com');
    expect(count(store.server, 'SELECT count(*) AS n FROM password_setup_requests')).toBe(0);
    expect(await cluster.round(store)).toMatchObject({ ok: true });
    expect(requests()).toHaveLength(1);
  });

  it('a voucher applied in both stores while offline keeps its first application everywhere and is listed', async () => {
    cluster = await startCluster();
    const [a, b] = cluster.stores as [Store, Store];
    const voucher = `de${(0x701).toString(16).padStart(24, '0')}`;
    await cluster.stopHub();
    const apply = (store: Store, time: string) =>
      call('POST', `${store.server.api('enterprise')}/vouchers/${voucher}/actions/apply-voucher`, {
        headers: store.auth,
        body: { store_id: store === a ? DEMO_IDS.storeCentral : DEMO_IDS.storeAirport, date_applied: time },
      });
    expect((await apply(a, '2026-11-21 10:00:00')).status).toBe(204);
    expect((await apply(b, '2026-11-21 10:05:00')).status).toBe(204);
    await cluster.restartHub();
    for (const store of [a, b, a]) expect((await cluster.round(store)).ok).toBe(true);
    for (const server of [cluster.hub, a.server, b.server]) {
      const seen = await call('GET', `${server.api('enterprise')}/vouchers/${voucher}`, { headers: await demoPosLogin(server) });
      expect(seen.body.data).toMatchObject({ store_id: DEMO_IDS.storeCentral, applied_date: '2026-11-21 10:00:00' });
      expect(count(server, "SELECT count(*) AS n FROM sync_conflicts WHERE kind = 'voucher_applied_twice'")).toBe(1);
    }
  });
});
