/**
 * Sync acceptance, real processes: state flows down. Changes made at the hub through its
 * API reach every store; a store started on an empty folder bootstraps from the hub's
 * snapshot and converges; a bootstrap killed midway resumes where it stopped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_PROGRAM } from '../../src/demo/demo.js';
import { Cluster, posLogin, type NodeProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { FaultyProxy } from '../support/faulty-proxy.js';
import { call } from '../support/server.js';
import { createCustomer, updateCustomer, updateStore } from '../support/sync-writes.js';

/** Customers loaded at the hub before the interrupted bootstrap: more than one load batch (10,000 rows, src/sync/store/bootstrap.ts). */
const HUB_CUSTOMERS = 12_500;

/** The demo's first reward as its program file gives it, to be loaded again under a new name. */
const FREE_CAPPUCCINO = (JSON.parse(readFileSync(DEMO_PROGRAM, 'utf8')) as { rewards: { id: string }[] }).rewards[0]!;
const HUB_PRODUCT = 'de0000000000000000000003f1';

let cluster: Cluster;
let proxy: FaultyProxy;
let hubPos: Record<string, string>;

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['east', 'west', 'third', 'late'],
    started: ['east', 'west'],
    hubUrlFor: async (store, hub) => {
      if (store !== 'late') return hub.url;
      proxy = await FaultyProxy.start({ target: hub.url });
      return proxy.url;
    },
  });
  for (const store of cluster.runningStores()) await cluster.waitBootstrapped(store);
  hubPos = await posLogin(cluster.hub);
});

afterAll(async () => {
  await proxy?.close();
  await cluster?.close();
});

async function readAt(node: NodeProcess, path: string): Promise<any> {
  const response = await call('GET', `${node.api('enterprise')}${path}`, { headers: await posLogin(node) });
  return response.status === 200 ? response.body.data : undefined;
}

describe('changes made at the hub', () => {
  it('a customer and a store changed at the hub through its API, and a reward and a product loaded there as master data, reach both stores', async () => {
    expect((await updateCustomer(cluster.hub, hubPos, DEMO_IDS.customerEva, { last_name: 'Changed-at-hub' })).status).toBe(204);
    // Rewards and products are master data the API only reads: head office loads them with
    // `loyaltyd import` on the hub's folder while the hub runs.
    const rewardFile = join(cluster.hub.dataDir, '..', 'rewards.ndjson');
    writeFileSync(rewardFile, `${JSON.stringify({ ...FREE_CAPPUCCINO, name: 'Free cappuccino (changed at the hub)' })}\n`);
    expect(await cluster.hub.cli(['import', 'rewards', rewardFile])).toMatchObject({ imported: 1, rejected: 0 });
    const productFile = join(cluster.hub.dataDir, '..', 'products.ndjson');
    writeFileSync(productFile, `${JSON.stringify({ product_id: HUB_PRODUCT, name: 'Flat white', external_ids: { GLOBAL: 'HUB-FLAT-WHITE' } })}\n`);
    expect(await cluster.hub.cli(['import', 'products', productFile])).toMatchObject({ imported: 1, rejected: 0 });
    expect((await updateStore(cluster.hub, hubPos, DEMO_IDS.storeAirport, 'PRG-02', 'Prague Airport T2')).status).toBe(204);
    const created = await createCustomer(cluster.hub, hubPos, 'Hubert', 'Headoffice');
    for (const store of [cluster.store('east'), cluster.store('west')]) {
      const pos = await posLogin(store);
      const read = async (path: string) => {
        const response = await call('GET', `${store.api('enterprise')}${path}`, { headers: pos });
        return response.status === 200 ? response.body.data : undefined;
      };
      // The hub's last change first: once it is there, the earlier ones are too.
      const newcomer = await waitFor(`the customer created at the hub to reach ${store.name}`, () => read(`/customers/${created.id}`), {
        timeoutMs: 15_000,
      });
      expect(newcomer.personal_information.first_name).toBe('Hubert');
      expect((await read(`/customers/${DEMO_IDS.customerEva}`)).personal_information.last_name).toBe('Changed-at-hub');
      expect((await read(`/stores/${DEMO_IDS.storeAirport}`)).name).toBe('Prague Airport T2');
      expect((await read(`/rewards/${FREE_CAPPUCCINO.id}`)).name).toBe('Free cappuccino (changed at the hub)');
      expect((await read(`/products/${HUB_PRODUCT}`)).name).toBe('Flat white');
    }
  }, 60_000);

  it('a third store started on an empty folder bootstraps from the snapshot and converges with the hub and the other stores', async () => {
    const third = cluster.store('third');
    await third.start();
    const status = await cluster.waitBootstrapped(third);
    expect(status.outbox.pending).toBe(0);
    await cluster.waitConverged();
    // The hub's users came with the snapshot: the POS logs in there with hub credentials.
    expect((await readAt(third, `/customers/${DEMO_IDS.customerEva}`)).personal_information.last_name).toBe('Changed-at-hub');
  }, 60_000);

  it(`a bootstrap killed midway (after the first load batch of ${HUB_CUSTOMERS}+ rows) resumes after the last row loaded and converges`, async () => {
    // Loaded the way head office loads master data: `loyaltyd import` on the running hub.
    const file = join(cluster.root, 'customers.ndjson');
    const lines = Array.from({ length: HUB_CUSTOMERS }, (_, index) =>
      JSON.stringify({
        customer: { personal_information: { first_name: `Bulk${index}`, last_name: 'Zákazník', email: `bulk${index}@example.com` } },
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(await cluster.hub.cli(['import', 'customers', file])).toMatchObject({ imported: HUB_CUSTOMERS, rejected: 0 });
    const late = cluster.store('late');
    // The snapshot stalls after 10,300 lines: the store loads a batch of 10,000 and waits for more.
    proxy.hold({ method: 'GET', path: /^\/sync\/v1\/snapshot/, afterLines: 10_300 });
    await late.start();
    await waitFor('the first load batch to commit', () => late.syncState('snapshot_after_id') !== undefined, { timeoutMs: 20_000, intervalMs: 25 });
    const midway = await late.syncStatus();
    expect(midway.feed).toMatchObject({ bootstrapping: true, cursor: null });
    const loaded = late.count('SELECT count(*) AS n FROM customers');
    expect(loaded).toBeGreaterThan(0);
    expect(loaded).toBeLessThan(cluster.hub.count('SELECT count(*) AS n FROM customers'));
    await late.kill();
    proxy.release();

    await late.start();
    await cluster.waitConverged();
    // The second snapshot request continued after the last row the first one loaded.
    const snapshots = proxy.requestLog.filter((line) => line.startsWith('GET /sync/v1/snapshot'));
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1]).toMatch(/[?&]entity=\w+&after_id=[0-9a-f]+/);
    expect(late.count('SELECT count(*) AS n FROM customers')).toBe(cluster.hub.count('SELECT count(*) AS n FROM customers'));
    // Names of two-byte characters, which the stream's chunks cut anywhere, arrive whole.
    expect(late.count("SELECT count(*) AS n FROM customers WHERE last_name = 'Zákazník'")).toBe(HUB_CUSTOMERS);
  }, 60_000);

  it('a POS logging in at the hub (a node-local write) leaves no feed lag at the stores', async () => {
    await cluster.waitConverged();
    const loginAt = Date.now();
    await posLogin(cluster.hub);
    const stores = cluster.runningStores();
    // A pull that started after the login, then the lag each store reports.
    await Promise.all(
      stores.map((store) =>
        waitFor(`${store.name} to pull after the login`, () => {
          const pulledAt = store.peekStatus().last_pull_at;
          return pulledAt !== null && Date.parse(pulledAt) > loginAt + 1100;
        }),
      ),
    );
    const lags = Object.fromEntries(
      await Promise.all(
        stores.map(async (store) => {
          const { feed } = await store.syncStatus();
          return [store.name, `lag_rows ${feed.lag_rows} (cursor ${feed.cursor}, hub_last_seq ${feed.hub_last_seq})`] as const;
        }),
      ),
    );
    expect(
      Object.values(lags).every((lag) => lag.startsWith('lag_rows 0 ')),
      JSON.stringify(lags),
    ).toBe(true);
    // Neither the session nor the stores' node secrets are in the hub's feed.
    expect(
      cluster.hub.count("SELECT count(*) AS n FROM changes WHERE entity IN ('user_sessions', 'nodes', 'node_stores', 'password_setup_requests')"),
    ).toBe(0);
    expect(cluster.hub.count('SELECT count(*) AS n FROM user_sessions')).toBeGreaterThan(0);
  }, 60_000);
});
