/**
 * A hub one schema version ahead of a store, which it serves (DESIGN §5): rows of a table the
 * store does not have yet, and values of a column it lacks, reach the store in its bootstrap
 * and in later pulls without wedging its sync. The store applies what its schema takes, keeps
 * the rest in sync_deferred, and once its upgrade gives it the table and the column, the kept
 * changes arrive whole; of a row it holds, only the newest is kept. A real hub and a real store
 * over HTTP; the next version is made on the hub's file with the statements its migration would
 * run, and the upgrade likewise on the store's.
 */
import { rmSync } from 'node:fs';
import type { WriteTransaction } from '../../../src/db/write-path.js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { runRound } from '../../../src/sync/store/agent.js';
import { checksumTables } from '../../../src/sync/protocol/checksum.js';
import { readSyncStatus, type StoreSyncStatus } from '../../../src/sync/status.js';
import { createStoreSync } from '../../../src/root/store.js';
import { freePort } from '../../support/cluster.js';
import type { Db } from '../../../src/db/engine.js';
import { isSqlite } from '../../../src/db/sqlite.js';
import { waitFor } from '../../support/wait.js';
import { startTestServer, tempDir, type TestServer } from '../../support/server.js';

/** The next schema version's migration, on the node's engine (the hub's may be PostgreSQL). */
const upgrade = (db: Db) =>
  db.exec(`
    CREATE TABLE customer_notes (
      id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, note TEXT NOT NULL, hlc TEXT NOT NULL, last_change TEXT NOT NULL
    )${isSqlite(db) ? ' STRICT' : ''};
    ALTER TABLE customers ADD COLUMN tier TEXT;`);

const id = (n: number) => `d1${n.toString(16).padStart(24, '0')}`;
const hubDir = tempDir();
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(hubDir, { recursive: true, force: true });
});

const rows = (server: TestServer, sql: string) => server.app.node.db.prepare(sql).all();
/** What `loyaltyd sync status` reports as waiting for the store's upgrade. */
const deferred = (server: TestServer) => (readSyncStatus(server.app.node.db, 'store', undefined, Date.now) as StoreSyncStatus).feed.awaiting_upgrade;

/**
 * The write transaction as a hub of the next schema version has it: its table and column are
 * not in src/db/tables.generated.ts, which types this version's writes.
 */
function nextVersion(tx: WriteTransaction): {
  insert(table: string, row: Record<string, unknown>): void;
  update(table: string, id: string, row: Record<string, unknown>): boolean;
} {
  return tx as unknown as ReturnType<typeof nextVersion>;
}

describe('a store one schema version behind its hub', () => {
  it('syncs on, keeps what its schema lacks, and takes it whole after its upgrade', async () => {
    const port = await freePort();
    const first = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir, port });
    upgrade(first.app.node.db);
    first.app.node.writes.write(null, (written) => {
      const tx = nextVersion(written);
      tx.insert('customer_notes', { id: id(1), customer_id: DEMO_IDS.customerJana, note: 'Oat milk' });
      tx.update('customers', DEMO_IDS.customerJana, { tier: 'gold' });
    });
    const credentials = first.app.services.nodes.add('store-behind');
    await first.close();
    // Restarted, the hub lists the new table among those it replicates.
    const hub = await startTestServer({ config: { mode: 'hub' }, dataDir: hubDir, port, demo: false });
    servers.push(hub);
    const store = await startTestServer({
      demo: false,
      config: { 'hub.url': hub.url, 'node.name': credentials.node_name, 'node.secret': credentials.node_secret },
    });
    servers.push(store);
    const sync = createStoreSync(store.app.node, store.config, store.clock.now)!;
    const round = () => runRound(sync, store.clock.now);

    // The bootstrap: every customer row carries `tier`, so all three are loaded without it
    // and kept; the note's table is missing, so it is kept alone.
    expect(await round()).toMatchObject({ ok: true, bootstrapped: true });
    expect(checksumTables(store.app.node.db).customers).toEqual(checksumTables(hub.app.node.db).customers);
    expect(deferred(store)).toBe(4);

    // Later changes: one to a known column and the new one together, a new note, and a
    // product renamed — the feed moves on past all of them.
    hub.app.node.writes.write(null, (written) => {
      const tx = nextVersion(written);
      tx.update('customers', DEMO_IDS.customerPetr, { last_name: 'Novák-Dvořák', tier: 'silver' });
      tx.insert('customer_notes', { id: id(2), customer_id: DEMO_IDS.customerPetr, note: 'No receipts' });
      tx.update('stores', DEMO_IDS.storeAirport, { name: 'Airport, Terminal 2' });
    });
    expect(await round()).toMatchObject({ ok: true });
    expect(rows(store, `SELECT last_name FROM customers WHERE id = '${DEMO_IDS.customerPetr}'`)).toEqual([{ last_name: 'Novák-Dvořák' }]);
    expect(rows(store, `SELECT name FROM stores WHERE id = '${DEMO_IDS.storeAirport}'`)).toEqual([{ name: 'Airport, Terminal 2' }]);
    // Petr's newer change took the place of the one kept at the bootstrap; the note is kept beside the first.
    expect(deferred(store)).toBe(5);

    // A customer changed again and again while the store stays behind keeps one change, the newest.
    for (const tier of ['bronze', 'silver', 'platinum']) {
      hub.app.node.writes.write(null, (written) => nextVersion(written).update('customers', DEMO_IDS.customerJana, { tier }));
      expect(await round()).toMatchObject({ ok: true });
    }
    expect(deferred(store)).toBe(5);

    // The upgrade; the next round replays what was kept.
    upgrade(store.app.node.db);
    expect(await round()).toMatchObject({ ok: true });
    expect(deferred(store)).toBe(0);
    const tiers = 'SELECT id, tier, last_name FROM customers ORDER BY id';
    expect(rows(store, tiers)).toEqual(rows(hub, tiers));
    const notes = 'SELECT id, customer_id, note, hlc FROM customer_notes ORDER BY id';
    expect(rows(store, notes)).toEqual(rows(hub, notes));
    expect(rows(store, notes)).toHaveLength(2);
    // The hub's recommendation model builder writes on its own timer; a later round brings
    // what it wrote after the last one.
    await waitFor('the store to hold what the hub holds', async () => {
      expect(await round()).toMatchObject({ ok: true });
      expect(checksumTables(store.app.node.db)).toEqual(checksumTables(hub.app.node.db));
      return true;
    });
    await sync.client.close();
  });
});
