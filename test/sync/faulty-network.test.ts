/**
 * Sync acceptance, real processes: two stores reach their hub only through a proxy that
 * drops connections, delays requests, sends requests twice and cuts answers midway, while
 * both stores (and the hub) take a few thousand random writes — including changes to the
 * same hub-owned records from three places. With the faults off, everything converges:
 * outboxes drain, feeds catch up, every command is applied once, and the checksum of every
 * replicated table is the same on all nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { demoCredentials, DEMO_IDS } from '../../src/demo/demo.js';
import { Cluster, customerSession, newToken, posLogin, type NodeProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { FaultyProxy, seededRandom } from '../support/faulty-proxy.js';
import { call, type JsonResponse } from '../support/server.js';
import {
  assignPoints,
  cancelReservation,
  inParallel,
  postCustomer,
  postEvent,
  postOrder,
  postReservation,
  updateCustomer,
  updateStore,
} from '../support/sync-writes.js';

const SEED = Number(process.env.LOYALTYD_SYNC_TEST_SEED ?? 20_261_122);
const OPERATIONS_PER_STORE = 1000;
const OPERATIONS_AT_HUB = 150;
const FAULTS = { drop: 0.08, delay: 0.25, duplicate: 0.15, cut: 0.08 };

let cluster: Cluster;
const proxies: FaultyProxy[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['north', 'south'],
    hubUrlFor: async (store, hub) => {
      const proxy = await FaultyProxy.start({ target: hub.url, seed: SEED + proxies.length, delayMs: [5, 150] });
      proxies.push(proxy);
      return proxy.url;
    },
  });
  for (const store of cluster.runningStores()) await cluster.waitBootstrapped(store);
});

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await cluster?.close();
});

/** What a node's writes made, to find every record on the hub afterwards. */
interface Tally {
  made: Map<string, string[]>;
  statuses: Map<string, number>;
  /** Operations that ran to their end, each answered as its kind of write allows. */
  done: number;
}

/**
 * Records the writers may change: every node's own, and everyone's (hub-owned rows
 * included), which another node may not have received yet.
 */
const everyones = { customers: [DEMO_IDS.customerJana, DEMO_IDS.customerPetr, DEMO_IDS.customerEva], reservations: [] as string[] };

async function randomWrites(node: NodeProcess, count: number, seed: number, session: { headers: Record<string, string> }): Promise<Tally> {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const own = { customers: [...everyones.customers], reservations: [] as string[] };
  // Mostly records this node knows; now and then one made elsewhere, maybe not here yet.
  const customer = () => pick(random() < 0.75 ? own.customers : everyones.customers);
  const reservation = () => pick(random() < 0.75 && own.reservations.length > 0 ? own.reservations : everyones.reservations);
  const pos = await posLogin(node);
  const tally: Tally = { made: new Map(), statuses: new Map(), done: 0 };
  const note = (kind: string, response: JsonResponse, accepted: number[], id?: string) => {
    const key = `${kind} ${response.status}`;
    tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
    if (!accepted.includes(response.status)) throw new Error(`${kind} at ${node.name} answered ${response.status}: ${JSON.stringify(response.body)}`);
    if (id !== undefined && response.status < 300) tally.made.set(kind, [...(tally.made.get(kind) ?? []), id]);
  };
  await inParallel(count, 4, async (index) => {
    const roll = random();
    // A record made elsewhere may not have reached this node yet: not_found is then right.
    if (roll < 0.3) {
      const response = await postEvent(node, pos, customer(), `${node.name}-${index}`);
      note('events', response, [201, 400], response.body?.data?.event_id);
    } else if (roll < 0.4) {
      const response = await postReservation(node, pos, customer());
      note('product_reservations', response, [201, 400], response.body?.data?.product_reservation_id);
      if (response.status === 201) for (const list of [own, everyones]) list.reservations.push(response.body.data.product_reservation_id as string);
    } else if (roll < 0.45 && everyones.reservations.length > 0) {
      note('cancel', await cancelReservation(node, pos, reservation()), [204, 404]);
    } else if (roll < 0.52) {
      const response = await postCustomer(node, pos, `R${index}`, node.name);
      note('customers', response, [201], response.body?.data?.customer_id);
      if (response.status === 201) for (const list of [own, everyones]) list.customers.push(response.body.data.customer_id as string);
    } else if (roll < 0.67) {
      // The same customers change at both stores and at the hub: last writer wins.
      note('customer update', await updateCustomer(node, pos, customer(), { first_name: `${node.name}${index}`, phone: String(index) }), [204, 404]);
    } else if (roll < 0.77) {
      note('assign points', await assignPoints(node, pos, customer(), 1 + Math.floor(random() * 20)), [204, 400]);
    } else if (roll < 0.85) {
      // A logout is made at the hub: a store answers 503 when the network lets the call through neither way.
      const token = await newToken(node, `${node.name}-${index}`);
      if (random() < 0.5) {
        const loggedOut = await call('POST', `${node.api('customer')}/tokens/${token.tokenId}/actions/logout`, { headers: token.headers });
        note('logout', loggedOut, node.mode === 'store' ? [204, 503] : [204]);
      }
    } else if (roll < 0.93 && node.mode === 'store') {
      const response = await postOrder(node, session.headers, `${node.name}-${index}`);
      note('orders', response, [201], response.body?.data?.order_id);
    } else {
      // Stores are head office's master data: a store with a hub refuses to write them (src/db/write-path.ts).
      const expected = node.mode === 'store' ? [403] : [204];
      note(
        'store update',
        await updateStore(node, pos, pick([DEMO_IDS.storeCentral, DEMO_IDS.storeAirport]), `PRG-${node.name}`, `Prague ${node.name} ${index}`),
        expected,
      );
    }
    tally.done += 1;
  });
  return tally;
}

describe(`a faulty network between stores and hub (seed ${SEED})`, () => {
  it('with connections dropped, delayed, duplicated and cut during thousands of writes, all nodes converge once the network heals: same checksums, every command applied once', async () => {
    // Customers log in before the network fails: a session the hub made keeps working through it.
    const [northSession, southSession, hubSession] = await Promise.all(
      [cluster.store('north'), cluster.store('south'), cluster.hub].map((node) => customerSession(node)),
    );
    for (const proxy of proxies) proxy.setRates(FAULTS);
    const [north, south, hub] = await Promise.all([
      randomWrites(cluster.store('north'), OPERATIONS_PER_STORE, SEED * 3 + 1, northSession!),
      randomWrites(cluster.store('south'), OPERATIONS_PER_STORE, SEED * 3 + 2, southSession!),
      randomWrites(cluster.hub, OPERATIONS_AT_HUB, SEED * 3 + 3, hubSession!),
    ]);
    // Every operation ran to its end, whatever the network did to the syncs running beside it.
    expect([north!.done, south!.done, hub!.done]).toEqual([OPERATIONS_PER_STORE, OPERATIONS_PER_STORE, OPERATIONS_AT_HUB]);
    // The network misbehaves in every way it can before it heals. The stores' rounds go on at
    // their interval meanwhile; a round makes few requests when the hub's pages skip what a
    // store does not hold, so the writes alone may end before every kind of fault was drawn.
    const kinds = ['dropped', 'delayed', 'duplicated', 'cut'] as const;
    await waitFor(
      `every kind of fault at the proxies (${JSON.stringify(proxies.map((proxy) => proxy.stats))} after the writes)`,
      () => kinds.every((kind) => proxies.some((proxy) => proxy.stats[kind] > 0)),
      { timeoutMs: 60_000 },
    );

    for (const proxy of proxies) proxy.faultsOff();
    const { statuses, checksums } = await cluster.waitConverged({ timeoutMs: 60_000, viaCli: true });
    for (const status of Object.values(statuses)) expect(status.outbox.rejected).toBe(0);

    // Exactly once: the hub applied each store's commands once each, in seq order, none missing.
    for (const store of cluster.runningStores()) {
      const outbox = store.count("SELECT seq AS n FROM sqlite_sequence WHERE name = 'outbox'");
      const applied = cluster.hub.read((db) =>
        db
          .prepare<[string], { n: number; distinct_ids: number; max_seq: number }>(
            `SELECT count(*) AS n, count(DISTINCT command_id) AS distinct_ids, max(seq) AS max_seq
             FROM applied_commands WHERE node_id = (SELECT id FROM nodes WHERE name = ?)`,
          )
          .get(store.name),
      );
      expect(applied).toEqual({ n: outbox, distinct_ids: outbox, max_seq: outbox });
    }
    // Every record any node made is on the hub once; nothing a store made was lost.
    for (const tally of [north!, south!, hub!]) {
      for (const [kind, ids] of tally.made) {
        const found = cluster.hub.read((db) => {
          const exists = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${kind} WHERE id = ?`);
          return ids.filter((id) => exists.get(id)!.n === 1).length;
        });
        expect(found, `${kind} on the hub`).toBe(ids.length);
      }
    }
    expect(cluster.hub.count('SELECT count(*) AS n FROM events')).toBeGreaterThan(100);
    expect(checksums.customer_states!.rows).toBeGreaterThan(0);
  }, 150_000);

  it('a password-setup mail asked for at a store is made at the hub while the network lets the call through, answered 503 while it does not, and never queued', async () => {
    const north = cluster.store('north');
    const proxy = proxies[0]!;
    const spool = join(cluster.hub.dataDir, 'mail-spool');
    const mails = () => (existsSync(spool) ? readdirSync(spool).filter((file) => file.endsWith('.eml')).length : 0);
    const queued = () => north.count("SELECT seq AS n FROM sqlite_sequence WHERE name = 'outbox'");
    const ask = async (email: string) => {
      const token = await newToken(north, 'password-setup');
      const url = `${north.api('customer')}/tokens/${token.tokenId}/actions/send-password-setup-email`;
      return call('POST', url, { headers: token.headers, body: { email } });
    };
    const before = { mails: mails(), queued: queued() };

    // Every connection to the hub dropped: the store answers 503 at once and keeps nothing to send later.
    proxy.setRates({ drop: 1 });
    const refused = await ask(demoCredentials.customer_email);
    expect(refused.status).toBe(503);
    expect(refused.body.error.exception).toBe('service_unavailable_exception');
    proxy.faultsOff();
    expect(queued()).toBe(before.queued);

    // Through again: the hub makes the request and sends its mail, once.
    expect((await ask('petr.svoboda@example.com')).status).toBe(204);
    await waitFor('the hub to send the mail', () => mails() === before.mails + 1, { timeoutMs: 10_000 });
    expect(queued()).toBe(before.queued);
    expect(mails()).toBe(before.mails + 1);
  }, 60_000);
});
