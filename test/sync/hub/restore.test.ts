/**
 * A hub restored from a backup gets back what the stores pushed after the backup: a real hub
 * and store (test/support/cluster.ts), `loyaltyd backup` and `loyaltyd restore` as an operator
 * runs them. The store keeps the commands the hub applied, and sends them again to the hub
 * (src/sync/store/replay.ts), which runs them again, when the snapshot it bootstraps from says
 * which of its stamps the hub holds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { BalanceReader } from '../../../src/loyalty/balance-reader.js';
import { Cluster, hubAndStore, posLogin, type NodeProcess, type StoreProcess } from '../../support/cluster.js';
import { waitFor } from '../../support/wait.js';
import { call } from '../../support/server.js';
import { createCard, createCustomer, inParallel, sendPurchase } from '../../support/sync-writes.js';

const billFor = (node: NodeProcess, auth: Record<string, string>, cardNumber: string, billId: string) =>
  call('POST', `${node.api('enterprise')}/purchases/actions/send-purchase`, {
    headers: auth,
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1,
      card_number: cardNumber,
      bill: {
        bill_id: billId,
        payment_time: '2026-11-21 10:00:00',
        currency_id: 'CZK',
        total_price: '65',
        bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 65, bill_item_id: 1 }],
      },
    },
  });

const restoreHub = async (cluster: Cluster, backupFile: string) => {
  await cluster.hub.stop();
  await cluster.hub.restoreFrom(backupFile);
  await cluster.hub.start();
};

const pointsOf = (node: NodeProcess, customerId: string) => node.read((db) => new BalanceReader(db).balancesAt(customerId, Date.now()).pointsMilli);

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
    const backupFile = join(cluster.root, 'backups', 'hub.backup');
    await cluster.hub.backUp(backupFile);

    // After the backup: a customer registered at the store, with a card and a bill, and a bill
    // for Petr. The hub acknowledges them all; the store's outbox is empty again.
    const customer = await createCustomer(store, storeAuth, 'Vera', 'Afterbackup');
    await createCard(store, storeAuth, customer.id, '2000000009991');
    const newcomerBill = await billFor(store, storeAuth, '2000000009991', 'newcomer');
    expect(newcomerBill.status).toBe(201);
    const after = await sendPurchase(store, storeAuth, 'after-backup');
    // More of the store's commands than a replay request carries (500).
    await inParallel(520, 4, async (index) => {
      await sendPurchase(store, storeAuth, `after-backup-${index}`);
    });
    await cluster.waitConverged();
    const petrBefore = pointsOf(store, DEMO_IDS.customerPetr);
    const newcomerPoints = pointsOf(store, customer.id);
    expect(newcomerPoints).toBeGreaterThan(0);

    await restoreHub(cluster, backupFile);
    // The replayed facts reach the hub behind the horizon the store reported meanwhile: their
    // customers' states are published again once the horizon passes them (settle). The
    // checksums are compared once that is done, or the hub's could move between two reads.
    const replayed = () =>
      cluster.hub.count("SELECT count(*) AS n FROM purchases WHERE external_purchase_id LIKE 'after-backup-%'") === 520 &&
      !store.peekStatus().outbox.replaying;
    await waitFor(
      'the store replayed and the hub settled what it took',
      () => replayed() && cluster.hub.count('SELECT count(*) AS n FROM customer_state_tails') === 0,
      { timeoutMs: 90_000 },
    );
    const { checksums, statuses } = await cluster.waitConverged({ timeoutMs: 90_000, viaCli: true });
    expect(checksums).toEqual(cluster.hub.peekChecksum());
    // Sent again as the commands they were, and run again by the hub.
    expect(
      cluster.hub.count("SELECT count(*) AS n FROM applied_commands WHERE generation = 'replayed' AND status = 'applied'"),
    ).toBeGreaterThanOrEqual(523);
    expect(statuses['prague-01']).toMatchObject({ conflicts: 0, outbox: { replaying: false } });

    const at = (node: NodeProcess, auth: Record<string, string>, path: string) => call('GET', `${node.api('enterprise')}${path}`, { headers: auth });
    for (const [node, auth] of [
      [cluster.hub, hubAuth],
      [store, storeAuth],
    ] as const) {
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

describe('a hub restored from a backup, with two stores', () => {
  it('takes back a bill one store sold to a customer another store registered after the backup, whichever store sends its commands again first', async () => {
    const cluster = await Cluster.start({ stores: ['brno-01', 'brno-02'] });
    try {
      const registering = cluster.store('brno-01');
      const selling = cluster.store('brno-02');
      await cluster.waitBootstrapped(registering);
      await cluster.waitBootstrapped(selling);
      const [registeringAuth, sellingAuth] = [await posLogin(registering), await posLogin(selling)];
      mkdirSync(join(cluster.root, 'backups'));
      const backupFile = join(cluster.root, 'backups', 'hub.backup');
      await cluster.hub.backUp(backupFile);

      const customer = await createCustomer(registering, registeringAuth, 'Ota', 'Elsewhere');
      await createCard(registering, registeringAuth, customer.id, '2000000009992');
      await cluster.waitConverged();
      const bill = await billFor(selling, sellingAuth, '2000000009992', 'elsewhere');
      expect(bill.status).toBe(201);
      await cluster.waitConverged();
      const points = pointsOf(selling, customer.id);
      expect(points).toBeGreaterThan(0);

      // The selling store sends its commands again while the registering one is down: the hub
      // lost the customer the bill names, and answers it waiting for now.
      await registering.stop();
      await restoreHub(cluster, backupFile);
      await waitFor('the bill waiting for now', () => selling.syncState('replay_waiting'));
      const hubBill = () =>
        call('GET', `${cluster.hub.api('enterprise')}/purchases/${bill.body.data.purchase_id as string}`, { headers: sellingAuth });
      expect((await hubBill()).status).not.toBe(200);
      await registering.start();
      const { statuses } = await cluster.waitConverged({ timeoutMs: 90_000, viaCli: true });

      expect(statuses['brno-02']).toMatchObject({ conflicts: 0, outbox: { replaying: false } });
      const hubAuth = await posLogin(cluster.hub);
      expect(
        (await call('GET', `${cluster.hub.api('enterprise')}/purchases/${bill.body.data.purchase_id as string}`, { headers: hubAuth })).status,
      ).toBe(200);
      expect(pointsOf(cluster.hub, customer.id)).toBe(points);
      expect(pointsOf(registering, customer.id)).toBe(points);
    } finally {
      await cluster.close();
    }
  }, 180_000);
});

describe('a hub restored from a backup while a store has a queue', () => {
  it('gets back the customer, her card and the queued bill, and both stores agree with the hub on her balance', async () => {
    const cluster = await Cluster.start({ stores: ['ostrava-01', 'ostrava-02'] });
    try {
      const queueing = cluster.store('ostrava-01');
      const beside = cluster.store('ostrava-02');
      await cluster.waitBootstrapped(queueing);
      await cluster.waitBootstrapped(beside);
      const auth = await posLogin(queueing);
      mkdirSync(join(cluster.root, 'backups'));
      const backupFile = join(cluster.root, 'backups', 'hub.backup');
      await cluster.hub.backUp(backupFile);

      // After the backup the hub acknowledges a customer and her card; then it goes down and
      // the store queues a bill for her.
      const customer = await createCustomer(queueing, auth, 'Iva', 'Queued');
      await createCard(queueing, auth, customer.id, '2000000009993');
      await cluster.waitConverged();
      await cluster.hub.stop();
      const queued = await billFor(queueing, auth, '2000000009993', 'queued-during-restore');
      expect(queued.status).toBe(201);
      expect(queueing.peekStatus().outbox.pending).toBe(1);
      await cluster.hub.restoreFrom(backupFile);
      await cluster.hub.start();
      await waitFor(
        'the queued bill at the hub',
        () => cluster.hub.count("SELECT count(*) AS n FROM purchases WHERE external_purchase_id = 'queued-during-restore'") === 1,
        { timeoutMs: 90_000 },
      );
      const { statuses } = await cluster.waitConverged({ timeoutMs: 90_000, viaCli: true });

      expect(statuses['ostrava-01']).toMatchObject({ conflicts: 0, outbox: { pending: 0, rejected: 0, replaying: false } });
      for (const node of [cluster.hub, queueing, beside]) {
        expect(node.count('SELECT count(*) AS n FROM customers WHERE id = ?', customer.id), node.name).toBe(1);
        expect(node.count("SELECT count(*) AS n FROM cards WHERE card_number = '2000000009993' AND customer_id = ?", customer.id), node.name).toBe(1);
      }
      const points = pointsOf(cluster.hub, customer.id);
      expect(points).toBeGreaterThan(0);
      expect(pointsOf(queueing, customer.id)).toBe(points);
      expect(pointsOf(beside, customer.id)).toBe(points);
    } finally {
      await cluster.close();
    }
  }, 180_000);
});
