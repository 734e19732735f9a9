/**
 * A node lists conflicts for as long as it runs, and reads the newest on every request a store
 * makes to its hub (the report) and on its status page. On a real store holding thousands of
 * listed conflicts: both show the newest, newest first, read by the index of their time rather
 * than by sorting every listed conflict; `sync conflicts` lists the newest it is asked for,
 * oldest first, and says how many there are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestConflictsSql } from '../../src/sync/conflict-listing.js';
import { storeReporter } from '../../src/sync/store/store-report.js';
import { call, startTestServer, type TestServer } from '../support/server.js';
import { runCli, runCliJson } from '../support/cli.js';

const LISTED = 3000;
let store: TestServer;

beforeAll(async () => {
  store = await startTestServer();
  const list = store.app.node.db.prepare(
    "INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, 'points_overspent', 'customers', ?, '{}', ?)",
  );
  // Listed in an order other than their time: the ids and the times do not sort alike.
  store.app.node.db.transaction(() => {
    for (let i = 0; i < LISTED; i += 1) {
      const minute = (i * 7919) % LISTED;
      list.run(`conflict-${String(i).padStart(5, '0')}`, `customer-${i}`, new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString());
    }
  })();
});

afterAll(async () => {
  await store?.close();
});

/** The detected_at of the `count` newest conflicts, newest first. */
function newestTimes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, LISTED - 1 - i)).toISOString());
}

describe('the newest listed conflicts', () => {
  it("are the report's and the status page's, newest first", async () => {
    const report = storeReporter(store.app.node.db, store.clock.now)();
    expect(report.conflicts).toBe(LISTED);
    expect(report.recent_conflicts.map((conflict) => conflict.detected_at)).toEqual(newestTimes(5));

    const view = (await call('GET', `${store.url}/status/json`)).body;
    const section = view.sections.find((candidate: { id: string }) => candidate.id === 'conflicts');
    expect(section.rows.map((row: { cells: { sort: string }[] }) => row.cells[0]!.sort)).toEqual(newestTimes(20));
  });

  it('are read by the index of their time, not by sorting every conflict listed', () => {
    const plan = store.app.node.db.prepare(`EXPLAIN QUERY PLAN ${newestConflictsSql('kind')}`).all(1) as { detail: string }[];
    expect(plan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SCAN sync_conflicts USING INDEX sync_conflicts_by_time/)]);
  });

  it('are what `sync conflicts` lists, oldest first, as many as --limit asks, with the count of all', async () => {
    const listed = await runCliJson(['sync', 'conflicts', '--data-dir', store.dataDir, '--limit', '3']);
    expect(listed.total).toBe(LISTED);
    expect(listed.conflicts.map((conflict: { detected_at: string }) => conflict.detected_at)).toEqual(newestTimes(3).reverse());

    const text = await runCli(['sync', 'conflicts', '--data-dir', store.dataDir]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`the newest 1000 of ${LISTED} conflicts (--limit)`);
    expect(text.stdout.trim().split('\n')).toHaveLength(1001);

    const refused = await runCli(['sync', 'conflicts', '--data-dir', store.dataDir, '--limit', '0']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('a whole number of 1 or more');
  });
});
