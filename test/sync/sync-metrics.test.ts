/**
 * The sync figures an operator watches, on a real hub and a real store in this process,
 * with a proxy between them that can take the hub away: the store's /metrics count its
 * outbox up while the hub is unreachable and back to 0 once a round gets through; /health
 * on both turns 503, with its reason, once the silence is longer than the offline age, and
 * 200 again after; the hub's /metrics and /status show the store as it reported itself.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/engine.js';
import { isSqlite } from '../../src/db/sqlite.js';
import { runRound } from '../../src/sync/store/agent.js';
import { FEED_SPAN_SQL } from '../../src/sync/hub/feed-compaction.js';
import { FEED_HEAD_SQL } from '../../src/sync/status.js';
import type { SyncParts } from '../../src/sync/store/sync-parts.js';
import { createStoreSync } from '../../src/root/store.js';
import { FaultyProxy } from '../support/faulty-proxy.js';
import { assignPoints } from '../support/sync-writes.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { call, demoPosLogin, startTestServer, TestClock, type TestServer } from '../support/server.js';

const OFFLINE_HOURS = 1;
let hub: TestServer;
let store: TestServer;
let proxy: FaultyProxy;
let sync: SyncParts;

beforeAll(async () => {
  const clock = new TestClock();
  hub = await startTestServer({ clock, config: { mode: 'hub', 'offline.max_age_hours': OFFLINE_HOURS } });
  const credentials = hub.app.services.nodes.add('prague', [DEMO_IDS.storeCentral]);
  proxy = await FaultyProxy.start({ target: hub.url });
  store = await startTestServer({
    demo: false,
    clock: new TestClock(clock.ms),
    config: {
      'hub.url': proxy.url,
      'node.name': credentials.node_name,
      'node.secret': credentials.node_secret,
      'offline.max_age_hours': OFFLINE_HOURS,
    },
  });
  sync = createStoreSync(store.app.node, store.config, store.clock.now)!;
});

afterAll(async () => {
  await sync?.client.close();
  await store?.close();
  await proxy?.close();
  await hub?.close();
});

/** A write a till makes, which the store queues for the hub. */
async function assignAtTill(server: TestServer): Promise<void> {
  const assigned = await assignPoints(server, await demoPosLogin(server), DEMO_IDS.customerEva, 5);
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(204);
}

/** A metric's value in a node's /metrics; undefined when it has no sample. */
async function metric(server: TestServer, name: string, labels = ''): Promise<number | undefined> {
  const text = (await call('GET', `${server.url}/metrics`)).body as string;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

function round() {
  return runRound(sync, store.clock.now);
}

function advanceBoth(ms: number): void {
  hub.clock.advance(ms);
  store.clock.advance(ms);
}

async function hubFact(label: string): Promise<string | undefined> {
  const view = (await call('GET', `${hub.url}/status/json`)).body;
  return view.sections.find((section: { id: string }) => section.id === 'hub').items.find((item: { label: string }) => item.label === label)?.value;
}

async function hubRow(): Promise<{ cells: { text: string }[]; mark?: string }> {
  const view = (await call('GET', `${hub.url}/status/json`)).body;
  return view.sections
    .find((section: { id: string }) => section.id === 'stores')
    .rows.find((row: { cells: { text: string }[] }) => row.cells[0]!.text === 'prague');
}

describe('sync metrics and health', () => {
  it('a store that has synced shows an empty outbox and a fresh round; the hub counts its contact', async () => {
    expect((await round()).ok).toBe(true);
    expect(await metric(store, 'loyaltyd_sync_outbox_pending')).toBe(0);
    expect(await metric(store, 'loyaltyd_sync_seconds_since_success')).toBe(0);
    expect(await metric(store, 'loyaltyd_sync_feed_lag_rows')).toBe(0);
    expect(await metric(store, 'loyaltyd_sync_conflicts')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_store_seconds_since_contact', '{store="prague"}')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_store_outbox_pending', '{store="prague"}')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_silent_stores')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_outbox_pending')).toBeUndefined();
    expect(await metric(store, 'loyaltyd_sync_silent_stores')).toBeUndefined();
    // The store has just reported what it pushed: the customer states' horizon is now.
    expect(await metric(hub, 'loyaltyd_sync_horizon_age_seconds')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_unsettled_states')).toEqual(expect.any(Number));
    expect(await metric(store, 'loyaltyd_sync_horizon_age_seconds')).toBeUndefined();
    expect((await call('GET', `${store.url}/health`)).status).toBe(200);
    const hubHealth = await call('GET', `${hub.url}/health`);
    expect(hubHealth.status).toBe(200);
    expect(hubHealth.body).toMatchObject({ status: 'ok', reasons: [] });
  });

  it('while the hub is unreachable the outbox depth goes up and the store says since when; past the offline age both nodes answer 503 with the reason', async () => {
    proxy.setRates({ drop: 1 });
    await assignAtTill(store);
    await assignAtTill(store);
    advanceBoth(1000);
    expect((await round()).ok).toBe(false);
    expect(await metric(store, 'loyaltyd_sync_outbox_pending')).toBe(2);
    advanceBoth(90_000);
    expect(await metric(store, 'loyaltyd_sync_outbox_oldest_age_seconds')).toBe(91);
    expect(await metric(store, 'loyaltyd_sync_seconds_since_success')).toBe(91);
    const page = (await call('GET', `${store.url}/status/json`)).body;
    const facts = page.sections.find((section: { id: string }) => section.id === 'sync').items;
    expect(facts).toContainEqual({ label: 'Hub is', value: 'unreachable', mark: 'unreachable' });
    expect(facts).toContainEqual({ label: 'Since', value: expect.stringMatching(/\(90 s ago\)$/) });
    expect(facts).toContainEqual({ label: 'Outbox depth', value: '2' });
    const rounds = page.sections.find((section: { id: string }) => section.id === 'rounds').rows;
    expect(rounds[0]).toMatchObject({ mark: 'failed', cells: expect.arrayContaining([{ text: 'failed' }]) });
    // The silent store's last report is the horizon, and the hub's page names it; no state waits on it.
    expect(await metric(hub, 'loyaltyd_sync_horizon_age_seconds')).toBe(91);
    expect(await hubFact("Customer states' horizon")).toMatch(/\(91 s ago\), at store prague's last report, which no state waits on$/);

    advanceBoth(OFFLINE_HOURS * 3_600_000);
    const storeHealth = await call('GET', `${store.url}/health`);
    expect(storeHealth.status).toBe(503);
    expect(storeHealth.body.status).toBe('degraded');
    expect(storeHealth.body.reasons).toEqual([
      expect.stringContaining('no successful sync round with the hub for longer than offline.max_age_hours'),
    ]);
    const hubHealth = await call('GET', `${hub.url}/health`);
    expect(hubHealth.status).toBe(503);
    expect(hubHealth.body.reasons).toEqual(['1 store(s) silent for longer than offline.max_age_hours (1 h)']);
    expect(await metric(hub, 'loyaltyd_sync_silent_stores')).toBe(1);
    expect(await hubRow()).toMatchObject({ mark: 'silent', cells: expect.arrayContaining([{ text: expect.stringMatching(/^silent /) }]) });
    // Silent for longer than the offline age, it holds the horizon back no more.
    expect(await metric(hub, 'loyaltyd_sync_horizon_age_seconds')).toBe(OFFLINE_HOURS * 3600);
    expect(await hubFact("Customer states' horizon")).toMatch(/, at the offline age$/);
  });

  it('once a round gets through the outbox is back to 0, the hub has applied its commands, and both answer 200 again', async () => {
    proxy.faultsOff();
    expect((await round()).ok).toBe(true);
    expect(await metric(store, 'loyaltyd_sync_outbox_pending')).toBe(0);
    expect(await metric(store, 'loyaltyd_sync_outbox_oldest_age_seconds')).toBe(0);
    expect(await metric(store, 'loyaltyd_sync_seconds_since_success')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_store_applied_commands_total', '{store="prague"}')).toBe(2);
    expect(await metric(hub, 'loyaltyd_sync_store_rejected_commands_total', '{store="prague"}')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_store_seconds_since_contact', '{store="prague"}')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_silent_stores')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_horizon_age_seconds')).toBe(0);
    expect((await call('GET', `${store.url}/health`)).status).toBe(200);
    expect((await call('GET', `${hub.url}/health`)).status).toBe(200);
    const row = await hubRow();
    expect(row.mark).toBeUndefined();
    expect(row.cells[1]!.text).toBe('ok');
    const storePage = (await call('GET', `${hub.url}/status/stores/prague/json`)).body;
    const exchanges = storePage.sections.find((section: { id: string }) => section.id === 'exchanges').rows;
    expect(exchanges.map((exchange: { cells: { text: string }[] }) => exchange.cells[1]!.text)).toContain('push');
  });
});

describe('a store retired at the hub', () => {
  it('is silent no more: the hub leaves it out of its health, metrics and page, and takes no call with its secret', async () => {
    proxy.setRates({ drop: 1 });
    advanceBoth(OFFLINE_HOURS * 3_600_000 + 1000);
    expect((await call('GET', `${hub.url}/health`)).status).toBe(503);
    hub.app.services.nodes.retire('prague');
    expect((await call('GET', `${hub.url}/health`)).status).toBe(200);
    expect(await metric(hub, 'loyaltyd_sync_silent_stores')).toBe(0);
    expect(await metric(hub, 'loyaltyd_sync_store_seconds_since_contact', '{store="prague"}')).toBeUndefined();
    expect(await hubRow()).toBeUndefined();
    proxy.faultsOff();
    expect(await round()).toMatchObject({ ok: false, error: expect.stringContaining('401') });
  });
});

describe('the Grafana dashboard in config/', () => {
  it('charts every sync metric the hub and the store serve, and only metrics they serve', async () => {
    const dashboard = readFileSync(new URL('../../config/grafana-dashboard.json', import.meta.url), 'utf8');
    const expressions = (JSON.parse(dashboard) as { panels: { targets?: { expr: string }[] }[] }).panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => target.expr),
    );
    const charted = new Set(expressions.flatMap((expression) => expression.match(/loyaltyd_[a-z_]+/g) ?? []));
    const served = async (server: TestServer) =>
      ((await call('GET', `${server.url}/metrics`)).body as string)
        .split('\n')
        .filter((line) => line.startsWith('# TYPE loyaltyd_sync_'))
        .map((line) => line.split(' ')[2]!);
    const sync = new Set([...(await served(hub)), ...(await served(store))]);
    expect(sync.size).toBeGreaterThan(10);
    expect([...charted].sort()).toEqual([...sync].sort());
  });
});

/** A step of a plan that seeks the feed by an index: SQLite's SEARCH, PostgreSQL's index scan. */
const SEEK = /^SEARCH changes|Index (Only )?Scan (Backward )?using \S+ on changes/;

/**
 * The steps of a statement's plan that read the feed: SQLite's EXPLAIN QUERY PLAN, or
 * PostgreSQL's EXPLAIN with sequential scans off, where the planner takes an index wherever one
 * serves (on a feed this small it would rather read the table).
 */
function readsOfChanges(db: Db, sql: string): string[] {
  if (isSqlite(db))
    return db
      .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((step) => step.detail)
      .filter((detail) => detail.includes('changes'));
  return db.transaction(() => {
    db.exec('SET LOCAL enable_seqscan = off');
    return db
      .prepare<[], string>(`EXPLAIN ${sql}`)
      .pluck()
      .all()
      .filter((line) => / on changes\b/.test(line));
  })();
}

describe("the hub's reads of its feed at every probe and compaction", () => {
  it("seek the feed's first and last change by index instead of walking every change", () => {
    for (const sql of [FEED_HEAD_SQL, FEED_SPAN_SQL]) {
      expect(readsOfChanges(hub.app.node.db, sql)).toEqual([expect.stringMatching(SEEK), expect.stringMatching(SEEK)]);
    }
    expect(hub.app.node.db.prepare(FEED_HEAD_SQL).get()).toEqual({ seq: expect.any(Number), hlc: expect.any(String) });
  });
});
