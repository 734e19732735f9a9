/**
 * A hub with the demo chain and stores in this process, each a real server over its own
 * SQLite file, syncing over real HTTPS (the hub with the test run's certificate, the stores
 * trusting its CA: test/support/server.ts) in rounds the test drives rather than on a timer: the
 * cluster of the sync tests that decide what each node holds at each step. (The cluster of
 * `loyaltyd serve` processes, which sync on their own, is test/support/cluster.ts.)
 */
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { runRound, type RoundOutcome } from '../../src/sync/store/agent.js';
import type { SyncParts } from '../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../src/root/store.js';
import { DEMO_STORES, freePort } from './cluster.js';
import { dropHubDatabase } from './hub-engine.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoPosLogin, startTestServer, tempDir, type TestClock, type TestServer } from './server.js';

export interface InProcessStore {
  name: string;
  server: TestServer;
  sync: SyncParts;
  credentials: { node_name: string; node_secret: string };
  /** The demo POS user's Bearer header at this store. */
  auth: Record<string, string>;
}

export interface InProcessCluster {
  /** Throws while the hub is stopped. */
  readonly hub: TestServer;
  stores: InProcessStore[];
  /** Closes the hub; its folder and port stay for `restartHub`. */
  stopHub(): Promise<void>;
  restartHub(): Promise<void>;
  /** One sync round of `store`: push, then pull. */
  round(store: InProcessStore): Promise<RoundOutcome>;
  close(): Promise<void>;
}

export interface InProcessClusterOptions {
  /** How many stores (default 2), each bootstrapped by a first round. */
  stores?: number;
  hubClock?: TestClock;
  /** Settings of the hub's beside the cluster's own. */
  hubConfig?: Record<string, unknown>;
  /** The clock of the store with this index; each its own real-time clock unless given. */
  storeClock?: (index: number) => TestClock | undefined;
}

export async function startInProcessCluster(options: InProcessClusterOptions = {}): Promise<InProcessCluster> {
  const hubDir = tempDir();
  const port = await freePort();
  // The hub settles customer states when a test says so (settleStates), not on its timer
  // between a test's rounds, so that the rounds decide what each node holds.
  const hubConfig = { mode: 'hub', 'sync.settle_interval_seconds': 3600, ...options.hubConfig };
  let hub: TestServer | undefined = await startTestServer({ config: hubConfig, dataDir: hubDir, port, clock: options.hubClock });
  const stores: InProcessStore[] = [];
  const cluster: InProcessCluster = {
    get hub() {
      if (!hub) throw new Error('the hub is down');
      return hub;
    },
    stores,
    stopHub: async () => {
      await hub?.close();
      hub = undefined;
    },
    restartHub: async () => {
      hub = await startTestServer({ config: hubConfig, dataDir: hubDir, port, demo: false, clock: options.hubClock });
    },
    round: (store) => runRound(store.sync, store.server.clock.now),
    close: async () => {
      for (const store of stores) {
        await store.sync.client.close();
        await store.server.close();
      }
      await hub?.close();
      rmSync(hubDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      await dropHubDatabase(hubDir);
    },
  };
  try {
    for (let index = 0; index < (options.stores ?? 2); index += 1) {
      const credentials = cluster.hub.app.services.nodes.add(`store-${index}`, DEMO_STORES);
      const server = await startTestServer({
        demo: false,
        clock: options.storeClock?.(index),
        config: { 'hub.url': cluster.hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
      });
      stores.push({
        name: credentials.node_name,
        server,
        sync: createStoreSync(server.app.node, server.config, server.clock.now)!,
        credentials,
        auth: {},
      });
    }
    for (const store of stores) {
      expect(await cluster.round(store)).toMatchObject({ ok: true, bootstrapped: true });
      store.auth = await demoPosLogin(store.server);
    }
    return cluster;
  } catch (error) {
    await cluster.close();
    throw error;
  }
}

/** A bill of two coffees (200 CZK, 20 points) on Jana's card at the central store, sent to `store`; the purchase's id. */
export async function sellToJana(store: InProcessStore, billId: string): Promise<string> {
  const bill = {
    bill_id: billId,
    bill_number: `N-${billId}`,
    payment_time: new Date(store.server.clock.now()).toISOString(),
    currency_id: 'CZK',
    total_price: '200',
    bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000769' }], quantity: 2, price: 100, paid_amount: 200, bill_item_id: 1 }],
  };
  const sent = await call('POST', `${store.server.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: store.auth,
    body: { store_id: DEMO_IDS.storeCentral, cashdesk_number: 1, card_number: '2000000000017', bill },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body.data.purchase_id as string;
}
