/**
 * A store's sync status (src/sync/status.ts), which its report to the hub reads on every sync
 * request: its count of pending commands is read from the outbox's first and last pending seq,
 * and is the number of pending commands at each step of their life. A hub and a store in this
 * process, syncing over real HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { readSyncStatus } from '../../src/sync/status.js';
import { storeReporter } from '../../src/sync/store/store-report.js';
import { call } from '../support/server.js';
import { count } from '../support/node-reads.js';
import { startInProcessCluster, type InProcessCluster, type InProcessStore } from '../support/in-process-cluster.js';

let cluster: InProcessCluster | undefined;

afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const assign = (store: InProcessStore, customerId: string, amount: number) =>
  call('POST', `${store.server.api('enterprise')}/points/actions/assign-points`, { headers: store.auth, body: { customer_id: customerId, amount } });

describe("a store's count of pending commands", () => {
  it('is the number of pending commands as they are queued, pushed and held, and beside the acknowledged commands an older release kept', async () => {
    cluster = await startInProcessCluster({ stores: 1 });
    const store = cluster.stores[0]!;
    const node = store.server.app.node;
    const report = storeReporter(node.db, store.server.clock.now);
    const pending = () => {
      const counted = count(store.server, "SELECT count(*) AS n FROM outbox WHERE status = 'pending'");
      expect(readSyncStatus(node.db, 'store', 'http://hub', store.server.clock.now)).toMatchObject({ outbox: { pending: counted } });
      expect(report().outbox_pending).toBe(counted);
      return counted;
    };
    expect(pending()).toBe(0);

    await cluster.stopHub();
    for (const amount of [1, 2, 3]) expect((await assign(store, DEMO_IDS.customerEva, amount)).status).toBe(204);
    // A customer only this store knows: the hub holds the points given to them.
    const stranger = node.newId();
    node.writes.write(null, (tx) => tx.insert('customers', { id: stranger, first_name: 'Local' }));
    expect((await assign(store, stranger, 4)).status).toBe(204);
    expect(pending()).toBe(4);
    expect(report().outbox_oldest_age_seconds).not.toBeNull();

    await cluster.restartHub();
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 4, held: 1 });
    expect(pending()).toBe(0);
    expect(report().outbox_oldest_age_seconds).toBeNull();

    // An older release kept its acknowledged commands in the outbox, below those still to push.
    const stale = node.db.prepare(
      "INSERT INTO outbox (seq, command_id, generation, kind, payload, changes, hlc, created_at, status) VALUES (?, ?, 'old', 'points.assign', '{}', '[]', '0', '2026-11-01', ?)",
    );
    stale.run(1, 'old-applied', 'applied');
    stale.run(2, 'old-rejected', 'rejected');
    expect(pending()).toBe(0);
    await cluster.stopHub();
    for (const amount of [5, 6]) expect((await assign(store, DEMO_IDS.customerPetr, amount)).status).toBe(204);
    expect(pending()).toBe(2);
    await cluster.restartHub();
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 2 });
    expect(pending()).toBe(0);
  });
});
