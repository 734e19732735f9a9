/**
 * The write path under a SIGKILL, real processes: a store whose hub is down takes 200
 * send-purchases at once, its answers waiting on the WAL flusher (src/db/durability.ts), and
 * dies in the middle of them. Restarted on the same folder: every bill it answered is there,
 * every bill sent again is stored once, and its outbox holds one command per stored bill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { Cluster, posLogin } from '../support/cluster.js';

const BILLS = 200;
/** Answers seen before the kill: the rest are in flight, in the flusher's batch or behind it. */
const KILL_AFTER = 40;
const PETR_CARD = '2000000000024';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['desk'] });
  await cluster.waitBootstrapped(cluster.store('desk'));
});

afterAll(async () => {
  await cluster?.close();
});

function bill(index: number) {
  return {
    store_id: DEMO_IDS.storeCentral,
    cashdesk_number: 1,
    card_number: PETR_CARD,
    bill: {
      bill_id: `crash-${index}`,
      bill_number: `N-crash-${index}`,
      payment_time: '2026-11-21 09:30:00',
      currency_id: 'CZK',
      total_price: '65',
      bill_items: [{ plu_ids: [{ list_code: 'GLOBAL', code: '859000771' }], quantity: 1, price: 65, paid_amount: 65, bill_item_id: 1 }],
    },
  };
}

describe('a store killed in the middle of a batch of send-purchases', () => {
  it('keeps every bill it answered, stores each bill sent again once, and queues one command per stored bill', async () => {
    const desk = cluster.store('desk');
    const pos = await posLogin(desk);
    await cluster.hub.stop();
    const url = `${desk.api('enterprise')}/purchases/actions/send-purchase`;
    const send = (index: number) =>
      fetch(url, { method: 'POST', headers: { ...pos, 'content-type': 'application/json' }, body: JSON.stringify(bill(index)) });

    const answered: number[] = [];
    let killed: Promise<void> | undefined;
    await Promise.allSettled(
      Array.from({ length: BILLS }, async (_, index) => {
        const response = await send(index);
        await response.text();
        if (killed) return;
        expect(response.status).toBe(201);
        answered.push(index);
        if (answered.length === KILL_AFTER) killed = desk.kill();
      }),
    );
    await killed;
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answered.length).toBeLessThan(BILLS);

    await desk.start();
    const stored = (index: number) =>
      desk.count('SELECT count(*) AS n FROM purchases WHERE store_id = ? AND external_purchase_id = ?', DEMO_IDS.storeCentral, `crash-${index}`);
    expect(answered.filter((index) => stored(index) !== 1)).toEqual([]);

    const again = await posLogin(desk);
    for (let index = 0; index < BILLS; index += 1) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...again, 'content-type': 'application/json' },
        body: JSON.stringify(bill(index)),
      });
      const body = (await response.json()) as { error?: { error_data?: { invalid_params?: { reason: string }[] } } };
      if (response.status !== 201) expect(body.error?.error_data?.invalid_params?.[0]?.reason, JSON.stringify(body)).toBe('already_exists');
    }
    expect(Array.from({ length: BILLS }, (_, index) => stored(index)).filter((count) => count !== 1)).toEqual([]);
    const purchases = desk.count("SELECT count(*) AS n FROM purchases WHERE external_purchase_id LIKE 'crash-%'");
    expect(purchases).toBe(BILLS);
    const queuedFor = desk.read((db) =>
      db
        .prepare<[], string>("SELECT json_extract(operation, '$.ids[0]') FROM outbox WHERE kind = 'purchases.send' AND status = 'pending'")
        .pluck()
        .all(),
    );
    const purchaseIds = desk.read((db) => db.prepare<[], string>("SELECT id FROM purchases WHERE external_purchase_id LIKE 'crash-%'").pluck().all());
    expect(queuedFor.sort()).toEqual(purchaseIds.sort());
  }, 60_000);
});
