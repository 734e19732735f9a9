/**
 * A store sends a hub restored from a backup the commands it lost in requests cut as its pushes
 * are, by count and by bytes: commands large together past what the hub reads of one request
 * (`sync_limits.push_max_bytes`) reach it in several, and none is refused as too large.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { call } from '../../support/server.js';
import { inParallel } from '../../support/sync-writes.js';
import { waitFor } from '../../support/wait.js';

/** The least the hub may be set to read of one push or replay. */
const HUB_READS = 1_048_576;
const EVENTS = 40;
/** Each event's data: its command carries it twice, in the call and in the row. */
const DATA = 'x'.repeat(60_000);

let cluster: Cluster | undefined;
afterAll(() => cluster?.close());

describe('a hub restored from a backup, sent back large commands', () => {
  it('gets them in requests under what it reads of one, and holds every one', async () => {
    cluster = await Cluster.start({ stores: ['brno-01'], hubEnv: { LOYALTYD_SYNC_LIMITS__PUSH_MAX_BYTES: String(HUB_READS) } });
    const store: StoreProcess = cluster.store('brno-01');
    await cluster.waitBootstrapped(store);
    const auth = await posLogin(store);
    mkdirSync(join(cluster.root, 'backups'));
    const backupFile = join(cluster.root, 'backups', 'hub.backup');
    await cluster.hub.backUp(backupFile);

    await inParallel(EVENTS, 4, async (index) => {
      const response = await call('POST', `${store.api('enterprise')}/events`, {
        headers: auth,
        body: { event: { event_type_id: 'store_visit', customer_id: DEMO_IDS.customerEva, external_id: `large-${index}`, data: DATA } },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    });
    const events = () => cluster!.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'large-%'");
    await waitFor('the hub to hold every event', () => events() === EVENTS);
    const sent = store.read((db) =>
      db.prepare<[], number>('SELECT sum(length(changes) + length(operation)) FROM acknowledged_commands').pluck().get()!,
    );
    expect(sent).toBeGreaterThan(2 * HUB_READS);

    await cluster.hub.stop();
    await cluster.hub.restoreFrom(backupFile);
    await cluster.hub.start();
    expect(events()).toBe(0);
    await waitFor('the store to send the events back', () => events() === EVENTS && !store.peekStatus().outbox.replaying, { timeoutMs: 60_000 });
  }, 120_000);
});
