/**
 * Every list of both interfaces reads a page and its total_items through an index, for every sort
 * field /openapi.json allows and both directions (src/db/list-query.ts): SQLite's plan of each
 * statement a list prepares has no sorter (`USE TEMP B-TREE`) and no scan of a table without an
 * index. The node's `prepare` is passed through and recorded; the plans are read on its database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoPosLogin, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let prepared: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { mode: 'hub' } });
  const db = server.app.node.db;
  const prepare = db.prepare.bind(db);
  Object.assign(db, { prepare: (sql: string) => (prepared.push(sql), prepare(sql)) });
});
afterAll(() => server.close());

interface Operation {
  parameters?: { name: string; schema: { enum?: string[] } }[];
}

function planOf(sql: string): string[] {
  const params = sql
    .split('?')
    .slice(1)
    .map(() => 'x');
  return (server.app.node.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail);
}

describe('list plans', () => {
  it('every sort field a list allows, both directions, and its total_items read by an index', async () => {
    const auth = await demoPosLogin(server);
    const document = (await call('GET', `${server.url}/openapi.json`)).body as { paths: Record<string, { get?: Operation }> };
    const lists = Object.entries(document.paths).flatMap(([path, operations]) => {
      const fields = operations.get?.parameters?.find((parameter) => parameter.name === 'sort_field')?.schema.enum;
      return fields && !path.includes('{') ? [{ path, fields }] : [];
    });
    expect(lists.length).toBeGreaterThan(20);
    const unbounded: string[] = [];
    let read = 0;
    for (const { path, fields } of lists) {
      for (const field of fields) {
        for (const direction of ['ASC', 'DESC']) {
          prepared = [];
          const response = await call('GET', `${server.url}${path}?sort_field=${field}&sort_direction=${direction}`, { headers: auth });
          if (response.status !== 200) continue;
          read += 1;
          for (const sql of prepared.filter((text) => /ORDER BY|count\(\*\) AS n/.test(text))) {
            // The count reads its own subquery (`reached`), which LIMIT bounds, not a table.
            const steps = planOf(sql).filter((step) => step.includes('TEMP B-TREE') || (/^SCAN \w+$/.test(step) && step !== 'SCAN reached'));
            if (steps.length > 0) unbounded.push(`${path} ${field} ${direction}: ${steps.join('; ')}`);
          }
        }
      }
    }
    expect(read).toBeGreaterThan(40);
    expect(unbounded).toEqual([]);
  });

  it("a store's purchases of a span of time, and their total_items, read by the store and the time", async () => {
    const auth = await demoPosLogin(server);
    prepared = [];
    const span = 'payment_time_from=2026-11-01%2000%3A00%3A00&payment_time_to=2026-11-02%2000%3A00%3A00';
    const response = await call('GET', `${server.api('enterprise')}/purchases?store_id=${DEMO_IDS.storeCentral}&${span}`, { headers: auth });
    expect(response.status).toBe(200);
    const reads = prepared.filter((text) => text.includes('FROM purchases p') && text.includes('payment_time >='));
    expect(reads.length).toBe(2);
    for (const sql of reads)
      expect(planOf(sql).join('; ')).toMatch(
        /USING (COVERING )?INDEX purchases_by_store_time \(store_id=\? AND payment_time>\? AND payment_time<\?\)/,
      );
  });
});
