/**
 * Sync acceptance, real processes: a store writes hub-owned data the hub then refuses — a
 * card number the hub gave another customer meanwhile. The store's card is rejected, taken
 * back and listed as a conflict, and the store ends up holding what the hub holds, however
 * its push and its pull interleave with the write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { Cluster, posLogin, type StoreProcess } from '../support/cluster.js';
import { waitFor } from '../support/wait.js';
import { FaultyProxy } from '../support/faulty-proxy.js';
import { call } from '../support/server.js';
import { createCard } from '../support/sync-writes.js';

let cluster: Cluster;
let proxy: FaultyProxy;
let store: StoreProcess;
let storePos: Record<string, string>;
let hubPos: Record<string, string>;

beforeAll(async () => {
  cluster = await Cluster.start({
    stores: ['corner'],
    hubUrlFor: async (_store, hub) => {
      proxy = await FaultyProxy.start({ target: hub.url });
      return proxy.url;
    },
  });
  store = cluster.store('corner');
  await cluster.waitBootstrapped(store);
  storePos = await posLogin(store);
  hubPos = await posLogin(cluster.hub);
});

afterAll(async () => {
  await proxy?.close();
  await cluster?.close();
});

/** Whose card a card number is, read through the store's API. */
async function cardOwnerAtStore(cardNumber: string): Promise<string[]> {
  const response = await call('GET', `${store.api('enterprise')}/cards?card_number=${cardNumber}`, { headers: storePos });
  expect(response.status).toBe(200);
  return response.body.data.cards.map((card: { customer_id: string }) => card.customer_id);
}

/** Waits for the store to hear back on every command it queued and to finish a round after. */
async function settled(rejected: number): Promise<void> {
  await waitFor('the store to push and hear back', () => {
    const { outbox } = store.peekStatus();
    return outbox.pending === 0 && outbox.rejected === rejected;
  });
  const after = Date.now();
  await waitFor('one more round', () => Date.parse(store.peekStatus().last_success_at ?? '') > after + 50);
}

describe('a card number the hub gave to someone else meanwhile', () => {
  it('issued at a store while it is offline: the store card is held, taken back and listed, and the store holds the hub card', async () => {
    const cardNumber = '2900000000001';
    proxy.setRates({ drop: 1 });
    const atStore = await createCard(store, storePos, DEMO_IDS.customerEva, cardNumber);
    const atHub = await createCard(cluster.hub, hubPos, DEMO_IDS.customerPetr, cardNumber);
    proxy.faultsOff();

    await settled(1);
    const conflicts = (await store.cli(['sync', 'conflicts'])).conflicts as {
      kind: string;
      entity: string;
      entity_id: string;
      detail: { reason: string };
    }[];
    // The store may issue cards; the hub's feature code refuses a number it gave away: held for an operator.
    expect(conflicts).toContainEqual(
      expect.objectContaining({
        kind: 'held_command',
        entity: 'cards',
        entity_id: atStore.id,
        detail: expect.objectContaining({ reason: expect.stringContaining('already_exists') }),
      }),
    );
    expect(await cardOwnerAtStore(cardNumber)).toEqual([DEMO_IDS.customerPetr]);
    expect(store.count('SELECT count(*) AS n FROM cards WHERE id = ?', atHub.id)).toBe(1);
    await cluster.waitConverged();
  }, 60_000);

  it('issued at a store between its push and its pull: the store still ends up holding the hub card, as every other node does', async () => {
    const cardNumber = '2900000000002';
    // The store's round has pushed (nothing was pending) and its pull waits at the proxy.
    proxy.hold({ method: 'GET', path: /^\/sync\/v1\/changes/, request: true });
    await waitFor('a pull to be held', () => proxy.held === 1, { intervalMs: 20 });
    const atHub = await createCard(cluster.hub, hubPos, DEMO_IDS.customerPetr, cardNumber);
    await createCard(store, storePos, DEMO_IDS.customerEva, cardNumber);
    // The pull now brings the hub's card while the store's own, unpushed, holds the number.
    proxy.release();

    await settled(2);
    const conflicts = JSON.stringify((await store.cli(['sync', 'conflicts'])).conflicts);
    expect(await cardOwnerAtStore(cardNumber), `owner of the card number at the store; conflicts listed there: ${conflicts}`).toEqual([
      DEMO_IDS.customerPetr,
    ]);
    expect(store.count('SELECT count(*) AS n FROM cards WHERE id = ?', atHub.id)).toBe(1);
    expect(JSON.stringify(store.peekChecksum().cards)).toBe(JSON.stringify(cluster.hub.peekChecksum().cards));
  }, 60_000);
});
