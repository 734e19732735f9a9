/**
 * The recommendation model's steps beside waiting calls (a store's writer thread, the hub's
 * event loop): a step follows the change feed batch by batch, and ends after the batch it is
 * in once a call waits for the thread, so that a bill arriving during a step waits for one
 * batch, not the whole step. On a hub, whose feed keeps every table's changes.
 */
import { describe, expect, it } from 'vitest';
import { createRecommendations } from '../../../src/features/recommendations/index.js';
import { tempNode } from '../../support/temp-node.js';

/** The changes the builder follows in one batch (model-builder.service.ts). */
const CHANGES_PER_BATCH = 20;
const CHANGES = 2_000;

describe('the model builder beside waiting calls', () => {
  const { node } = tempNode('loyaltyd-model-steps-', 'hub');
  let waiting = false;
  const { builder } = createRecommendations({
    db: node.db,
    writes: node.writes,
    nodeId: node.identity.nodeId,
    syncsWithHub: false,
    servesFeed: true,
    callsWaiting: () => waiting,
  });
  const cursor = () => Number(node.db.prepare<[], string>("SELECT value FROM recommendation_state WHERE key = 'cursor'").pluck().get());
  const newest = () => node.db.prepare<[], number>('SELECT max(seq) FROM changes').pluck().get()!;
  const addChanges = () =>
    node.writes.write(null, (tx) => {
      for (let i = 0; i < CHANGES; i += 1) tx.insert('external_applications', { id: node.newId(), name: `Till ${i}`, state: 1 });
    });

  it('a step ends after its first batch while a call waits, and the model still catches up', () => {
    while (builder!.step());
    addChanges();
    const before = cursor();
    waiting = true;
    builder!.step();
    expect(cursor() - before).toBe(CHANGES_PER_BATCH);
    let steps = 1;
    while (builder!.step()) steps += 1;
    expect(cursor()).toBe(newest());
    expect(steps).toBeGreaterThanOrEqual(CHANGES / CHANGES_PER_BATCH);
  });

  it('a step with no call waiting follows batch after batch within its budget', () => {
    waiting = false;
    addChanges();
    // A pause of the machine longer than the budget may end one step after a batch; not all of them.
    let most = 0;
    while (cursor() < newest()) {
      const before = cursor();
      builder!.step();
      most = Math.max(most, cursor() - before);
    }
    expect(most).toBeGreaterThan(CHANGES_PER_BATCH);
  });
});
