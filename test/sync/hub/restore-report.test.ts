/**
 * A hub restored from a backup keeps no report of what a store has pushed through that counts
 * commands it lost: not the one the store's next pull carries (the cursor was read from the feed
 * before the restore), nor one at the store's bootstrap. The store reports once it has sent the
 * lost commands back, so that the hub folds no customer's state past them meanwhile.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { FaultyProxy } from '../../support/faulty-proxy.js';
import { call } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

const LOST = 5;

let cluster: Cluster | undefined;
let proxy: FaultyProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await cluster?.close();
});

describe('a hub restored from a backup, told what a store has pushed through', () => {
  it('keeps no report past the commands it lost until the store has sent them back', async () => {
    cluster = await Cluster.start({
      stores: ['ostrava-01'],
      hubUrlFor: async (_store, hub) => {
        proxy = await FaultyProxy.start({ target: hub.url });
        return proxy.url;
      },
    });
    const hub = cluster.hub;
    const store: StoreProcess = cluster.store('ostrava-01');
    await cluster.waitBootstrapped(store);
    const auth = await posLogin(store);
    const assign = async (amount: number) => {
      const response = await call('POST', `${store.api('enterprise')}/points/actions/assign-points`, {
        headers: auth,
        body: { customer_id: DEMO_IDS.customerEva, amount },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(204);
    };
    const reported = () => hub.read((db) => db.prepare<[], string>('SELECT pushed_through FROM sync_node_clocks').pluck().get());
    const acknowledged = () => store.read((db) => db.prepare<[], string>('SELECT hlc FROM acknowledged_commands ORDER BY seq').pluck().all());

    await assign(1);
    await waitFor('the first command acknowledged', () => acknowledged().length === 1 && store.peekStatus().outbox.pending === 0);
    mkdirSync(join(cluster.root, 'backups'));
    const backupFile = join(cluster.root, 'backups', 'hub.backup');
    await hub.backUp(backupFile);

    for (let amount = 2; amount < 2 + LOST; amount += 1) await assign(amount);
    await waitFor('the commands after the backup acknowledged', () => acknowledged().length === 1 + LOST);
    const lost = acknowledged().slice(1);
    await waitFor('a report past them', () => (reported() ?? '') >= lost.at(-1)!);

    proxy!.hold({ method: 'POST', path: /^\/sync\/v1\/replay/, request: true });
    await hub.stop();
    await hub.restoreFrom(backupFile);
    await hub.start();
    await waitFor('the store to send the lost commands back', () => proxy!.held === 1, { intervalMs: 20 });
    // The store has pulled from the restored hub, found its feed new and bootstrapped from it.
    const held = reported() ?? '';
    expect(held < lost[0]!, `the hub holds ${held} as the store's report; the first command it lost is stamped ${lost[0]}`).toBe(true);

    proxy!.release();
    await waitFor('a report past the commands sent back', () => (reported() ?? '') >= lost.at(-1)!, { timeoutMs: 30_000 });
  }, 120_000);
});
