/**
 * A hub on PostgreSQL, in this process, with a store on SQLite syncing over real HTTPS in
 * rounds the test drives (test/support/in-process-cluster.ts): the store bootstraps from the
 * hub's snapshot, its points and bills reach the hub once, and every replicated table holds
 * the same rows on both engines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { checksumTables } from '../../../src/sync/protocol/checksum.js';
import { sellToJana, startInProcessCluster, type InProcessCluster } from '../../support/in-process-cluster.js';
import { assignPoints } from '../../support/sync-writes.js';
import { freshPostgresDatabase, type PostgresDatabase } from '../../support/postgres.js';
import type { TestServer } from '../../support/server.js';

let cluster: InProcessCluster | undefined;
let database: PostgresDatabase | undefined;
afterEach(async () => {
  await cluster?.close();
  await database?.drop();
  cluster = undefined;
  database = undefined;
});

async function startOnPostgres(): Promise<InProcessCluster> {
  database = await freshPostgresDatabase();
  return startInProcessCluster({ stores: 1, hubConfig: { 'database.url': database.url } });
}

/** What the node holds: a count of its rows, and a customer's points. */
function holds(server: TestServer) {
  const db = server.app.node.db;
  return {
    rows: (sql: string) => db.prepare<[], number>(sql).pluck().get(),
    points: (customerId: string) => server.app.node.balances.balancesAt(customerId, Date.now()).pointsMilli / 1000,
  };
}

describe('a hub on PostgreSQL and a store on SQLite', () => {
  it('the store bootstraps from the hub, its writes reach the hub once, and both hold the same rows', async () => {
    cluster = await startOnPostgres();
    const store = cluster.stores[0]!;
    const [hub, local] = [holds(cluster.hub), holds(store.server)];
    expect(local.rows('SELECT count(*) FROM customers')).toBe(hub.rows('SELECT count(*) FROM customers'));
    expect(local.rows('SELECT count(*) FROM customers')).toBeGreaterThan(0);

    expect((await assignPoints(store.server, store.auth, DEMO_IDS.customerEva, 15)).status).toBe(204);
    await sellToJana(store, 'pg-bill-1');
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 2, rejected: 0, held: 0 });
    expect(await cluster.round(store)).toMatchObject({ ok: true, pushed: 0 });
    expect(hub.rows('SELECT count(*) FROM applied_commands')).toBe(2);
    expect(hub.rows("SELECT count(*) FROM purchases WHERE external_purchase_id = 'pg-bill-1'")).toBe(1);
    expect(hub.points(DEMO_IDS.customerEva)).toBe(15);
    expect(hub.points(DEMO_IDS.customerJana)).toBe(local.points(DEMO_IDS.customerJana));
    expect(hub.points(DEMO_IDS.customerJana)).toBeGreaterThan(0);

    const hubSums = checksumTables(cluster.hub.app.node.db);
    const storeSums = checksumTables(store.server.app.node.db);
    expect(Object.keys(hubSums).length).toBeGreaterThan(10);
    // The hub's model builder publishes its rows on its own time, after a round has brought it
    // the bills; test/sync/recommendations.test.ts follows them to the stores.
    const compared = Object.keys(storeSums).filter((table) => !table.startsWith('recommendation_'));
    expect(compared).toEqual(expect.arrayContaining(['customers', 'cards', 'customer_states']));
    const differing = compared.filter((table) => JSON.stringify(storeSums[table]) !== JSON.stringify(hubSums[table]));
    expect(differing).toEqual([]);
  });
});
