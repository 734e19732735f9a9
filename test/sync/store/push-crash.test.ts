/**
 * Sync acceptance, real processes: no command lost, none applied twice. A store with a few
 * thousand commands queued while its hub was down dies by SIGKILL in the middle of pushing
 * them — after the hub applied a batch whose answer never reached the store. Restarted, it
 * pushes the rest; the hub applies every command exactly once. And a store whose data
 * folder is restored from a backup starts a new generation rather than reusing seqs.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { Cluster, posLogin } from '../../support/cluster.js';
import { waitFor } from '../../support/wait.js';
import { FaultyProxy } from '../../support/faulty-proxy.js';
import { assignPoints, createCustomer, createEvent, inParallel, postEvent } from '../../support/sync-writes.js';

const COMMANDS = 2000;

let cluster: Cluster;
let proxy: FaultyProxy;

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['outlet', 'restored'],
    hubUrlFor: async (store, hub) => {
      if (store !== 'outlet') return hub.url;
      proxy = await FaultyProxy.start({ target: hub.url });
      return proxy.url;
    },
  });
  for (const store of cluster.runningStores()) await cluster.waitBootstrapped(store);
});

afterAll(async () => {
  await proxy?.close();
  await cluster?.close();
});

describe('a store killed in the middle of a push', () => {
  it('after a restart pushes the rest: the hub holds one applied command per queued command and no record twice', async () => {
    const outlet = cluster.store('outlet');
    const pos = await posLogin(outlet);
    await cluster.hub.stop();

    // Queue the commands as the API makes them: mostly events, some points and registrations.
    const made = { events: 0, points: 0, customers: 0 };
    await inParallel(COMMANDS, 8, async (index) => {
      if (index % 10 === 0) {
        expect((await assignPoints(outlet, pos, DEMO_IDS.customerEva, 1)).status).toBe(204);
        made.points += 1;
      } else if (index % 25 === 1) {
        await createCustomer(outlet, pos, `Crash${index}`, 'Shopper');
        made.customers += 1;
      } else {
        const response = await postEvent(outlet, pos, DEMO_IDS.customerPetr, `crash-${index}`);
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        made.events += 1;
      }
    });
    const queued = (await outlet.syncStatus()).outbox.pending;
    expect(queued).toBe(COMMANDS);

    // The store goes down too; when both are back the second push batch's answer is held
    // at the proxy after the hub applied it, and the store dies waiting for it.
    await outlet.stop();
    await cluster.hub.start();
    proxy.hold({ method: 'POST', path: /^\/sync\/v1\/commands/, skip: 1 });
    await outlet.start();
    await waitFor('the second push batch to be applied at the hub and its answer held', () => proxy.held === 1, {
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    const midPush = await outlet.syncStatus();
    expect(midPush.outbox.pending).toBeGreaterThan(0);
    expect(midPush.outbox.pending).toBeLessThan(COMMANDS);
    // The hub is ahead of what the store saw acknowledged: the held batch is applied.
    const acknowledged = COMMANDS - midPush.outbox.pending;
    expect(cluster.hub.count('SELECT count(*) AS n FROM applied_commands')).toBeGreaterThan(acknowledged);
    await outlet.kill();
    proxy.release();

    // Restarted on the same folder, the store re-sends what it never saw acknowledged.
    await outlet.start();
    const { checksums } = await cluster.waitConverged();
    const status = await outlet.syncStatus();
    expect(status.outbox).toMatchObject({ pending: 0, rejected: 0 });

    // The store deleted each command once the hub acknowledged it; AUTOINCREMENT still counts them.
    expect(outlet.count("SELECT count(*) AS n FROM outbox WHERE status = 'pending'")).toBe(0);
    expect(outlet.count("SELECT seq AS n FROM sqlite_sequence WHERE name = 'outbox'")).toBe(COMMANDS);
    const applied = cluster.hub.read((db) =>
      db
        .prepare<[], { command_id: string; seq: number; status: string }>(
          "SELECT command_id, seq, status FROM applied_commands WHERE node_id = (SELECT id FROM nodes WHERE name = 'outlet') ORDER BY seq",
        )
        .all(),
    );
    expect(new Set(applied.map((row) => row.command_id)).size).toBe(COMMANDS);
    expect(applied.map((row) => row.seq)).toEqual(Array.from({ length: COMMANDS }, (_, index) => index + 1));
    expect(applied.every((row) => row.status === 'applied')).toBe(true);
    expect(
      cluster.hub.read((db) =>
        db.prepare("SELECT last_seq FROM sync_node_progress WHERE node_id = (SELECT id FROM nodes WHERE name = 'outlet')").all(),
      ),
    ).toEqual([{ last_seq: COMMANDS }]);

    // Every record once: the events by their external id, the points by their count.
    expect(cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'crash-%'")).toBe(made.events);
    expect(cluster.hub.count("SELECT count(DISTINCT external_id) AS n FROM events WHERE external_id LIKE 'crash-%'")).toBe(made.events);
    expect(cluster.hub.count('SELECT count(*) AS n FROM point_records WHERE customer_id = ?', DEMO_IDS.customerEva)).toBe(made.points);
    expect(checksums.customer_states!.rows).toBeGreaterThan(0);
    expect(cluster.hub.count("SELECT count(*) AS n FROM customers WHERE first_name LIKE 'Crash%'")).toBe(made.customers);
    expect(made.events + made.points + made.customers).toBe(COMMANDS);
  }, 60_000);
});

describe('a store restored from a backup of its data folder', () => {
  it('starts a new generation: the commands it makes after the restore reach the hub instead of being taken for ones already applied', async () => {
    const store = cluster.store('restored');
    const backup = join(cluster.root, 'restored-backup');
    const pushed = () => waitFor('the outbox to drain', () => store.peekStatus().outbox.pending === 0, { timeoutMs: 20_000 });
    await store.stop();
    cpSync(store.dataDir, backup, { recursive: true });
    await store.start();

    // Five commands after the backup, applied at the hub (seqs 1-5 of this generation).
    let pos = await posLogin(store);
    for (let i = 0; i < 5; i += 1) await createEvent(store, pos, DEMO_IDS.customerPetr, `before-restore-${i}`);
    await pushed();
    expect(cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'before-restore-%'")).toBe(5);

    // The operator restores the backup; the store makes five other commands.
    await store.stop();
    rmSync(store.dataDir, { recursive: true, force: true });
    cpSync(backup, store.dataDir, { recursive: true });
    await store.start();
    pos = await posLogin(store);
    for (let i = 0; i < 5; i += 1) await createEvent(store, pos, DEMO_IDS.customerPetr, `after-restore-${i}`);
    await pushed();

    expect(
      cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'after-restore-%'"),
      'commands made after the restore, on the hub',
    ).toBe(5);
    await cluster.waitConverged();
    // Events are facts of the store that made them (src/sync/protocol/scopes.ts): the restored store
    // holds the ones it made since, and the hub all ten.
    expect(store.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'after-restore-%'")).toBe(5);
    expect(cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE '%-restore-%'")).toBe(10);
  }, 60_000);
});
