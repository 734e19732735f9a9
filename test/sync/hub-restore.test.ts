/**
 * A hub restored from a backup gets back what the stores pushed after the backup: a real hub
 * and store (test/support/cluster.ts), `loyaltyd backup` and `loyaltyd restore` as an operator
 * runs them. The store had those commands acknowledged and deleted from its outbox; it still
 * holds their rows, and replays them to the hub (src/sync/replay.ts) when the snapshot it
 * bootstraps from says which of its stamps the hub holds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { CustomerLedgers } from '../../src/loyalty/customer-ledgers.js';
import { runCliJson } from '../support/cli.js';
import { hubAndStore, type Cluster, type NodeProcess, type StoreProcess } from '../support/cluster.js';
import { call } from '../support/server.js';
import { createCard, createCustomer, inParallel, sendPurchase } from '../support/sync-writes.js';

const HUB = { LOYALTYD_MODE: 'hub' };

const pointsOf = (node: NodeProcess, customerId: string) => node.read((db) => new CustomerLedgers(db).balancesAt(customerId, Date.now()).pointsMilli);

describe('a hub restored from a backup', () => {
  let cluster: Cluster;
  let store: StoreProcess;
  let hubAuth: Record<string, string>;
  let storeAuth: Record<string, string>;

  beforeAll(async () => {
    ({ cluster, store, hubAuth, storeAuth } = await hubAndStore('prague-01'));
  }, 60_000);
  afterAll(() => cluster?.close());

  it('gets back the bills, customers and cards a store pushed after the backup, and every balance agrees', async () => {
    const before = await sendPurchase(store, storeAuth, 'before-backup');
    await cluster.waitConverged();
    mkdirSync(join(cluster.root, 'backups'));
    const backupFile = join(cluster.root, 'backups', 'hub.sqlite');
    await runCliJson(['backup', '--to', backupFile, '--data-dir', cluster.hub.dataDir], HUB);

    // After the backup: a customer registered at the store, with a card and a bill, and a bill
    // for Petr. The hub acknowledges them all; the store's outbox is empty again.
    const customer = await createCustomer(store, storeAuth, 'Vera', 'Afterbackup');
    await createCard(store, storeAuth, customer.id, '2000000009991');
    const newcomerBill = await call('POST', `${store.api('enterprise')}/purchases/actions/send-purchase`, {
      headers: storeAuth,
      body: {
        store_id: DEMO_IDS.storeCentral,
        cashdesk_number: 1,
        card_number: '2000000009991',
        bill: { bill_id: 'newcomer', payment_time: '2026-11-21 10:00:00', currency_id: 'CZK', total_price: '65', bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 65, bill_item_id: 1 }] },
      },
    });
    expect(newcomerBill.status).toBe(201);
    const after = await sendPurchase(store, storeAuth, 'after-backup');
    // More of the store's rows of one table than a replay request carries (500).
    await inParallel(520, 4, async (index) => {
      await sendPurchase(store, storeAuth, `after-backup-${index}`);
    });
    await cluster.waitConverged();
    const petrBefore = pointsOf(store, DEMO_IDS.customerPetr);
    const newcomerPoints = pointsOf(store, customer.id);
    expect(newcomerPoints).toBeGreaterThan(0);

    await cluster.hub.stop();
    await runCliJson(['restore', '--from', backupFile, '--data-dir', cluster.hub.dataDir], HUB);
    await cluster.hub.start();
    const { checksums, statuses } = await cluster.waitConverged({ timeoutMs: 90_000, viaCli: true });
    expect(checksums).toEqual(cluster.hub.peekChecksum());
    expect(statuses['prague-01']).toMatchObject({ conflicts: 0, outbox: { replaying: false } });

    const at = (node: NodeProcess, auth: Record<string, string>, path: string) => call('GET', `${node.api('enterprise')}${path}`, { headers: auth });
    for (const [node, auth] of [[cluster.hub, hubAuth], [store, storeAuth]] as const) {
      expect((await at(node, auth, `/purchases/${before.id}`)).status).toBe(200);
      expect((await at(node, auth, `/purchases/${after.id}`)).status).toBe(200);
      expect((await at(node, auth, `/purchases/${newcomerBill.body.data.purchase_id as string}`)).status).toBe(200);
      expect((await at(node, auth, `/customers/${customer.id}`)).status).toBe(200);
    }
    const purchases = (node: NodeProcess) => node.count("SELECT count(*) AS n FROM purchases WHERE external_purchase_id LIKE 'after-backup-%'");
    expect(purchases(store)).toBe(520);
    expect(purchases(cluster.hub)).toBe(520);
    expect(pointsOf(cluster.hub, DEMO_IDS.customerPetr)).toBe(petrBefore);
    expect(pointsOf(store, DEMO_IDS.customerPetr)).toBe(petrBefore);
    expect(pointsOf(cluster.hub, customer.id)).toBe(newcomerPoints);
    expect(pointsOf(store, customer.id)).toBe(newcomerPoints);
  }, 180_000);
});
