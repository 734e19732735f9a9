/**
 * A store that sells without pause: a round pushes what was pending as it began and goes on
 * to pull, and the store reports to the hub, while bills are still pending, the stamp of the
 * newest command the hub acknowledged — so that the hub's horizon moves on with each push and
 * the customer's state settles, rather than waiting for a moment the outbox is empty. Bills
 * sold during a round's push wait for the next round, which the sync agent runs soon after.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { settleStates } from '../../../src/loyalty/state-settling.js';
import { createStoreSync } from '../../../src/root/store.js';
import { pino } from 'pino';
import { runRound, SyncAgent } from '../../../src/sync/store/agent.js';
import { SyncState } from '../../../src/sync/sync-state.js';
import type { SyncParts } from '../../../src/sync/store/sync-parts.js';
import { Cluster, DEMO_STORES, posLogin } from '../../support/cluster.js';
import { FaultyProxy } from '../../support/faulty-proxy.js';
import { startInProcessCluster, type InProcessCluster } from '../../support/in-process-cluster.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../../support/server.js';
import { postEvent } from '../../support/sync-writes.js';
import { waitFor } from '../../support/wait.js';

const PUSH = { method: 'POST', path: /^\/sync\/v1\/commands/, request: true };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.reverse()) await close();
  cleanup = [];
});

interface BusyStore {
  cluster: InProcessCluster;
  proxy: FaultyProxy;
  server: TestServer;
  sync: SyncParts;
  auth: Record<string, string>;
  /** Set once an agent's stop closed the store's hub client. */
  clientClosed: boolean;
}

/** A hub and one store that reaches it through a proxy, bootstrapped. */
async function busyStore(): Promise<BusyStore> {
  const cluster = await startInProcessCluster({ stores: 0 });
  cleanup.push(() => cluster.close());
  const proxy = await FaultyProxy.start({ target: cluster.hub.url });
  cleanup.push(() => proxy.close());
  const credentials = cluster.hub.app.services.nodes.add('store-busy', DEMO_STORES);
  const server = await startTestServer({
    demo: false,
    config: { 'hub.url': proxy.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
  });
  const sync = createStoreSync(server.app.node, server.config, server.clock.now)!;
  const store: BusyStore = { cluster, proxy, server, sync, auth: {}, clientClosed: false };
  cleanup.push(async () => {
    if (!store.clientClosed) await sync.client.close();
    await server.close();
  });
  expect(await runRound(sync, server.clock.now)).toMatchObject({ ok: true, bootstrapped: true });
  store.auth = await demoPosLogin(server);
  return store;
}

async function assign(store: BusyStore, amount: number): Promise<void> {
  const response = await call('POST', `${store.server.api('enterprise')}/points/actions/assign-points`, {
    headers: store.auth,
    body: { customer_id: DEMO_IDS.customerEva, amount },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(204);
}

const pendingStamps = (store: BusyStore) =>
  store.server.app.node.db.prepare<[], string>("SELECT hlc FROM outbox WHERE status = 'pending' ORDER BY seq").pluck().all();
const ackedStamps = (store: BusyStore) =>
  store.server.app.node.db.prepare<[], string>('SELECT hlc FROM acknowledged_commands ORDER BY seq').pluck().all();
/** What the hub's one store reported having pushed through. */
function reportedAtHub(store: BusyStore): string {
  const reports = store.cluster.hub.app.node.db.prepare<[], string>('SELECT pushed_through FROM sync_node_clocks').pluck().all();
  expect(reports).toHaveLength(1);
  return reports[0]!;
}

describe('a store that keeps selling while it syncs', () => {
  it('pushes in a round what was pending as it began, pulls, and reports the newest acknowledged stamp while the later bill is pending', async () => {
    const store = await busyStore();
    const hub = store.cluster.hub;
    await settleStates(hub.app.node.states!, hub.app.node.writes);
    await assign(store, 10);

    store.proxy.hold(PUSH);
    const round = runRound(store.sync, store.server.clock.now);
    await waitFor('the push to be held', () => store.proxy.held === 1, { intervalMs: 10 });
    await assign(store, 20);
    store.proxy.release();
    expect(await round).toMatchObject({ ok: true, pushed: 1 });

    const [first] = ackedStamps(store);
    const [second] = pendingStamps(store);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(reportedAtHub(store)).toBe(first);
    expect(first! < second!).toBe(true);

    // The hub's horizon is that stamp: the first bill folds into Eva's lots, the second is not at the hub yet.
    await settleStates(hub.app.node.states!, hub.app.node.writes);
    const state = hub.app.node.db.prepare<[string], { horizon: string; tail: string }>('SELECT horizon, tail FROM customer_states WHERE id = ?');
    expect(state.get(DEMO_IDS.customerEva)).toMatchObject({ horizon: first, tail: '[]' });

    expect(await runRound(store.sync, store.server.clock.now)).toMatchObject({ ok: true, pushed: 1 });
    expect(pendingStamps(store)).toEqual([]);
    expect(reportedAtHub(store) > second!).toBe(true);
  });

  it('a command queued while its round pushes is pushed by the next round soon after, not an interval later', async () => {
    let proxy: FaultyProxy | undefined;
    const cluster = await Cluster.start({
      stores: ['corner'],
      storeSetup: { corner: { env: { LOYALTYD_SYNC_INTERVAL_SECONDS: '3600' } } },
      hubUrlFor: async (_store, hub) => {
        proxy = await FaultyProxy.start({ target: hub.url });
        return proxy.url;
      },
    });
    cleanup.push(async () => {
      await proxy?.close();
      await cluster.close();
    });
    const store = cluster.store('corner');
    await cluster.waitBootstrapped(store);
    const pos = await posLogin(store);
    const events = () => cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'busy-%'");

    proxy!.hold(PUSH);
    expect((await postEvent(store, pos, DEMO_IDS.customerEva, 'busy-1')).status).toBe(201);
    await waitFor('the push of the first event to be held', () => proxy!.held === 1, { intervalMs: 10 });
    expect((await postEvent(store, pos, DEMO_IDS.customerEva, 'busy-2')).status).toBe(201);
    // The second event's nudge (200 ms after its write) comes while the round still waits for the hub.
    await delay(500);
    proxy!.release();
    await waitFor('both events at the hub, with rounds an hour apart but for writes', () => events() === 2, { timeoutMs: 10_000 });
  }, 60_000);

  it('a stopped agent starts no round for a command queued during its last one', async () => {
    const store = await busyStore();
    const agent = new SyncAgent(store.sync, store.server.clock.now, 3_600_000, pino({ level: 'silent' }));
    const state = new SyncState(store.server.app.node.db);
    store.proxy.hold(PUSH);
    agent.start();
    await assign(store, 10);
    await waitFor('the push to be held', () => store.proxy.held === 1, { intervalMs: 10 });
    await assign(store, 20);
    // The second write's nudge comes and goes while the round still waits for the hub.
    await delay(400);
    const stopped = agent.stop();
    store.proxy.release();
    await stopped;
    store.clientClosed = true;
    const rounds = state.get('recent_rounds');
    await delay(600);
    expect(state.get('recent_rounds')).toBe(rounds);
  });
});
