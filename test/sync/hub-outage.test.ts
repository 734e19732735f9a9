/**
 * Sync acceptance, real processes: a hub and two stores, each `loyaltyd serve` over its
 * own SQLite file. The hub dies (SIGKILL) while both stores take writes of every kind the
 * API has; it comes back on the same port and folder, and the stores' agents find it again
 * by themselves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { scopeOf } from '../../src/sync/protocol/scopes.js';
import { Cluster, customerSession, newToken, posLogin, type StoreProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { expectError } from '../support/expect-error.js';
import { call } from '../support/server.js';
import {
  applyVoucher,
  assignPoints,
  cancelReservation,
  createCard,
  createCustomer,
  createEvent,
  createOrder,
  createReservation,
  DEMO_VOUCHER,
  detailPath,
  sendPurchase,
  storeBody,
  updateCustomer,
  updateStore,
  type Created,
} from '../support/sync-writes.js';

let cluster: Cluster;
const auth = new Map<string, Record<string, string>>();

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['prague', 'brno'] });
  for (const store of cluster.runningStores()) {
    await cluster.waitBootstrapped(store);
    auth.set(store.name, await posLogin(store));
  }
});

afterAll(async () => {
  await cluster?.close();
});

const sessions = new Map<string, { tokenId: string; headers: Record<string, string> }>();

/** Writes of every kind the API offers, made at one store; what they created. */
async function writeEverything(store: StoreProcess, tag: string): Promise<Created[]> {
  const pos = auth.get(store.name)!;
  const created: Created[] = [];
  const customer = await createCustomer(store, pos, `Offline${tag}`, 'Shopper');
  created.push(customer);
  expect((await updateCustomer(store, pos, customer.id, { last_name: 'Returning' })).status).toBe(204);
  created.push(await createCard(store, pos, customer.id, `29${tag.charCodeAt(0)}000${Date.now() % 1_000_000}`));
  for (let i = 0; i < 3; i += 1) created.push(await createEvent(store, pos, DEMO_IDS.customerPetr, `${tag}-visit-${i}`));
  created.push(await createEvent(store, pos, customer.id, `${tag}-signup`));
  const reservation = await createReservation(store, pos, DEMO_IDS.customerPetr);
  created.push(reservation, await createReservation(store, pos, customer.id));
  expect((await cancelReservation(store, pos, reservation.id)).status).toBe(204);
  expect((await assignPoints(store, pos, DEMO_IDS.customerEva, 5)).status).toBe(204);
  created.push(await sendPurchase(store, pos, `${tag}-bill-1`));
  // The one demo voucher, applied at both stores while they cannot see each other.
  const [storeId, time] = tag === 'P' ? [DEMO_IDS.storeCentral, '2026-11-21 10:00:00'] : [DEMO_IDS.storeAirport, '2026-11-21 10:05:00'];
  expect((await applyVoucher(store, pos, DEMO_VOUCHER, storeId, time)).status).toBe(204);
  // Jana holds 250 points; each store, knowing that balance, redeems 200 of them.
  expect(
    (
      await call('POST', `${store.api('enterprise')}/points/actions/reduce-points`, {
        headers: pos,
        body: { customer_id: DEMO_IDS.customerJana, amount: 200 },
      })
    ).status,
  ).toBe(204);
  // A session the hub made before the outage keeps working; a login or logout, made at the hub
  // alone, answers 503 while it is down and the store makes no session of its own.
  created.push(await createOrder(store, sessions.get(store.name)!.headers, `${tag} order`));
  const kiosk = await newToken(store, `${tag}-kiosk`);
  const login = await call('POST', `${store.api('customer')}/tokens/${kiosk.tokenId}/actions/login`, {
    headers: kiosk.headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  expectError(login, 503, 'service_unavailable_exception');
  expect(login.headers.get('retry-after')).toBe('30');
  expect((await call('GET', `${store.api('customer')}/orders`, { headers: kiosk.headers })).status).toBe(403);
  const logout = await call('POST', `${store.api('customer')}/tokens/${sessions.get(store.name)!.tokenId}/actions/logout`, {
    headers: sessions.get(store.name)!.headers,
  });
  expectError(logout, 503, 'service_unavailable_exception');
  // Stores are head office's master data: a store with a hub refuses to write them, at once,
  // rather than queue a command the hub would reject (src/db/write-path.ts).
  const pending = (await store.syncStatus()).outbox.pending;
  const refused = await call('POST', `${store.api('enterprise')}/stores`, { headers: pos, body: storeBody(`OUT-${tag}`, `Outlet ${tag}`) });
  expect(refused.status).toBe(403);
  expect(refused.body.error.detail).toContain('a store with a hub does not perform stores.');
  expect((await updateStore(store, pos, DEMO_IDS.storeCentral, 'PRG-01', `Outlet ${tag} renamed`)).status).toBe(403);
  expect((await store.syncStatus()).outbox.pending).toBe(pending);
  return created;
}

describe('a hub outage', () => {
  // Three minutes: the test starts a CLI process for each status, round, checksum and conflict
  // list, which a loaded machine starts slowly.
  it('stores keep answering and taking writes while the hub is down; once it is back every record is on the hub once, on the other store, all checksums agree; points spent at both stores are a negative balance and a voucher applied at both keeps its first application, each listed on every node', async () => {
    const prague = cluster.store('prague');
    const brno = cluster.store('brno');
    for (const store of [prague, brno]) sessions.set(store.name, await customerSession(store));
    await cluster.hub.kill();

    const written = new Map<string, Created[]>();
    for (const [store, tag] of [
      [prague, 'P'],
      [brno, 'B'],
    ] as const) {
      expect((await call('GET', `${store.url}/health`)).status).toBe(200);
      written.set(store.name, await writeEverything(store, tag));
      // Reads keep answering from the store's own file.
      const customer = written.get(store.name)!.find((record) => record.table === 'customers')!;
      const read = await call('GET', `${store.api('enterprise')}${detailPath(customer)}`, { headers: auth.get(store.name)! });
      expect(read.status).toBe(200);
      expect(read.body.data.personal_information.last_name).toBe('Returning');
    }
    const queued = new Map<string, number>();
    for (const store of [prague, brno]) {
      const status = await store.syncStatus();
      expect(status.outbox.pending).toBeGreaterThanOrEqual(15);
      queued.set(store.name, status.outbox.pending);
    }

    await cluster.hub.start();
    // One store's operator runs a round at once; the other store's agent finds the hub by itself.
    const round = await prague.syncNow();
    expect(round).toMatchObject({ ok: true, rejected: 0 });
    const { statuses } = await cluster.waitConverged({ viaCli: true });
    for (const status of Object.values(statuses)) {
      expect(status.outbox.rejected).toBe(0);
      expect(status.reachable).toBe(true);
    }

    // Every command reached the hub once, and every record is there once.
    const applied = cluster.hub.read((db) =>
      db
        .prepare<[], { node: string; n: number; distinct_ids: number; max_seq: number }>(
          `SELECT n.name AS node, count(*) AS n, count(DISTINCT a.command_id) AS distinct_ids, max(a.seq) AS max_seq
         FROM applied_commands a JOIN nodes n ON n.id = a.node_id GROUP BY n.name`,
        )
        .all(),
    );
    for (const store of [prague, brno]) {
      const outbox = store.count("SELECT seq AS n FROM sqlite_sequence WHERE name = 'outbox'");
      expect(applied.find((row) => row.node === store.name)).toEqual({ node: store.name, n: outbox, distinct_ids: outbox, max_seq: outbox });
      expect(outbox).toBeGreaterThanOrEqual(queued.get(store.name)!);
    }
    const all = [...written.values()].flat();
    for (const record of all) {
      expect(cluster.hub.count(`SELECT count(*) AS n FROM ${record.table} WHERE id = ?`, record.id), `${record.table} ${record.id} on the hub`).toBe(
        1,
      );
    }

    // Each store sees the other store's records through its API: master data from its own
    // file, the other store's facts (src/sync/protocol/scopes.ts) from the hub, as the answer says.
    for (const [reader, writer] of [
      [prague, brno],
      [brno, prague],
    ] as const) {
      for (const record of written.get(writer.name)!) {
        const response = await call('GET', `${reader.api('enterprise')}${detailPath(record)}`, { headers: auth.get(reader.name)! });
        expect(response.status, `${record.table} ${record.id} from ${writer.name} read at ${reader.name}`).toBe(200);
        const source = scopeOf(record.table) === 'origin' ? 'hub' : null;
        expect(response.headers.get('x-loyaltyd-source'), `${record.table} read at ${reader.name}`).toBe(source);
        if (source === 'hub') expect(reader.count(`SELECT count(*) AS n FROM ${record.table} WHERE id = ?`, record.id)).toBe(0);
      }
    }
    // A customer session is the store's whose app asked the hub for it (DESIGN §5 "Authority"):
    // another store does not know its token; at its own store it reads the customer's orders of
    // both stores from the hub.
    const session = sessions.get('prague')!;
    expect((await call('GET', `${brno.api('customer')}/orders`, { headers: session.headers })).status).toBe(401);
    const orders = await waitFor("the customer's orders of both stores", async () => {
      const read = await call('GET', `${prague.api('customer')}/orders`, { headers: session.headers });
      return read.status === 200 && read.body.data.orders.length >= 2 ? read : undefined;
    });
    const orderIds = [...written.values()]
      .flat()
      .filter((record) => record.table === 'orders')
      .map((record) => record.id);
    expect(orders.body.data.orders.map((order: { order_id: string }) => order.order_id)).toEqual(expect.arrayContaining(orderIds));

    // `sync checksum --json` agrees on all three nodes, table by table — once the stores have
    // pulled what the hub published since: it settles customer states on its own timer
    // (src/loyalty/state-settling.ts), so a state may move after the first convergence.
    const { checksums: hubSums } = await cluster.waitConverged({ viaCli: true });
    expect(hubSums.customer_states!.rows).toBeGreaterThanOrEqual(2);
    expect(cluster.hub.count('SELECT count(*) AS n FROM events')).toBeGreaterThanOrEqual(8);

    // The same points spent twice offline: kept as debt and listed, alike on every node; the
    // voucher applied at both stores keeps its first application (Prague's) and is listed.
    for (const node of cluster.nodes) {
      const { conflicts } = await node.cli(['sync', 'conflicts']);
      expect(conflicts, node.name).toHaveLength(2);
      expect(conflicts, node.name).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'points_overspent',
            entity: 'customers',
            entity_id: DEMO_IDS.customerJana,
            detail: { balance_points: -150, uncovered_points: 150 },
          }),
          expect.objectContaining({ kind: 'voucher_applied_twice', entity_id: DEMO_VOUCHER }),
        ]),
      );
      const voucher = await call('GET', `${node.api('enterprise')}/vouchers/${DEMO_VOUCHER}`, { headers: await posLogin(node) });
      expect(voucher.body.data, node.name).toMatchObject({ store_id: DEMO_IDS.storeCentral, applied_date: '2026-11-21 10:00:00' });
    }
  }, 180_000);
});

describe('commands a store queues for the hub', () => {
  it('a password-setup email asked for at a store is made and sent by the hub, and queues nothing at the store (DESIGN §4)', async () => {
    const prague = cluster.store('prague');
    const token = await newToken(prague, 'password-setup');
    const asked = await call('POST', `${prague.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`, {
      headers: token.headers,
      body: { email: demoCredentials.customer_email },
    });
    expect(asked.status).toBe(204);
    const status = await waitFor('the store to push the request', async () => {
      const current = await prague.syncStatus();
      return current.outbox.pending === 0 ? current : undefined;
    });
    // The hub must not answer the command with a rejection the store then takes back.
    const { conflicts } = (await prague.cli(['sync', 'conflicts'])) as { conflicts: { kind: string }[] };
    expect(conflicts.filter((conflict) => conflict.kind === 'rejected_command')).toEqual([]);
    expect(status.outbox.rejected).toBe(0);
    // With no SMTP configured the hub writes the message to its spool folder.
    const spool = join(cluster.hub.dataDir, 'mail-spool');
    await waitFor(
      'the hub to send the password-setup mail',
      () => existsSync(spool) && readdirSync(spool).some((file) => readFileSync(join(spool, file), 'utf8').includes(demoCredentials.customer_email)),
      { timeoutMs: 10_000 },
    );
  }, 60_000);
});
