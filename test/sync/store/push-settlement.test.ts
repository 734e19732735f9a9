/**
 * A store catching up after an outage settles the hub's answers to a push a turn at a time,
 * so that the cash desks' calls waiting for its writer thread run between turns: the
 * settlement of a whole batch in one transaction held the thread 20–30 ms a batch
 * (test/bench/README.md). Seen from outside, a batch is half settled between two turns: the
 * store's pending commands stand, at moments, at counts no whole number of batches gives.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { Cluster, posLogin, type StoreProcess } from '../../support/cluster.js';
import { pendingCount, pendingPushes, pendingSpan } from '../../support/outbox.js';
import { inParallel, postEvent } from '../../support/sync-writes.js';

const COMMANDS = 1500;

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ stores: ['outlet'] });
  await cluster.waitBootstrapped(cluster.store('outlet'));
});

afterAll(async () => {
  await cluster?.close();
});

/** The pending counts at which the pusher's batches end, as it would cut them from what the outbox holds now. */
function batchEnds(store: StoreProcess): Set<number> {
  const pushes = store.read(pendingPushes);
  const ends = new Set<number>();
  let left = pushes.reduce((sum, push) => sum + push.length, 0);
  ends.add(left);
  for (const push of pushes) ends.add((left -= push.length));
  return ends;
}

describe('a store catching up after an outage', () => {
  it('settles a push a turn at a time: between turns, part of a batch is settled and the rest still pending', async () => {
    const outlet = cluster.store('outlet');
    const pos = await posLogin(outlet);
    await cluster.hub.stop();
    await inParallel(COMMANDS, 8, async (index) => {
      const response = await postEvent(outlet, pos, DEMO_IDS.customerPetr, `catch-up-${index}`);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    });
    const ends = batchEnds(outlet);
    expect(ends.size).toBeGreaterThan(2);

    const db = new Database(join(outlet.dataDir, 'loyaltyd.sqlite'), { readonly: true, fileMustExist: true });
    const span = pendingSpan(db);
    const seen = new Set<number>();
    try {
      await cluster.hub.start();
      const deadline = Date.now() + 60_000;
      for (let pending = COMMANDS; pending > 0 && Date.now() < deadline; await nextTurn()) {
        pending = pendingCount(span());
        seen.add(pending);
      }
    } finally {
      db.close();
    }
    expect(seen.has(0)).toBe(true);
    const midBatch = [...seen].filter((pending) => !ends.has(pending));
    expect(
      midBatch.length,
      `pending counts seen: ${[...seen].sort((a, b) => b - a).join(', ')}; batches end at ${[...ends].join(', ')}`,
    ).toBeGreaterThan(0);
    await cluster.waitConverged();
    expect(cluster.hub.count("SELECT count(*) AS n FROM events WHERE external_id LIKE 'catch-up-%'")).toBe(COMMANDS);
  }, 120_000);
});
