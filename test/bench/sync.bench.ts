/**
 * Sync throughput (sync issue, acceptance 6):
 *  A. 100,000 commands queued at a store, pushed to and applied by a hub process
 *     (target ≤ 30 s). Baseline: the same rows inserted straight into a SQLite file in
 *     500-row transactions — what the hub's apply costs beyond the bare writes.
 *  B. A new store bootstrapping 1,000,000 customers with cards and balances from a hub
 *     process: each customer has a point record at the hub, so the hub holds a customer
 *     state for each, settled as a chain at rest holds it (target ≤ 20 s, scopes issue; the
 *     store receives the states, not the records). Baseline: the same tables copied file to file with ATTACH + INSERT … SELECT —
 *     what the snapshot stream costs beyond a local copy.
 * Prints rows/s, the ratios and the hub's peak RSS. BENCH_SYNC_PARTS picks the parts
 * (`push`, `bootstrap`; both by default). BENCH_SYNC_HUB_DIR names a folder to keep B's
 * generated and settled hub in: a later run on the same folder reuses it (the size it was
 * made with is the caller's to keep), for re-runs and profiles of the bootstrap alone.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/clock.js';
import { openDatabase } from '../../src/db/open.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { loadConfig } from '../../src/config.js';
import { databaseFile, openNode } from '../../src/node.js';
import { settleStates } from '../../src/loyalty/state-settling.js';
import { runRound } from '../../src/sync/agent.js';
import { NodeClocks } from '../../src/sync/node-clocks.js';
import { createStoreSync } from '../../src/wiring.js';
import { addNode, benchDir, cli, startHub, storeConfig } from './cluster.js';
import { line, megabytes, peakRss, rate, seconds, verdict } from './report.js';

const COMMANDS = Number(process.env.BENCH_SYNC_COMMANDS ?? 100_000);
const CUSTOMERS = Number(process.env.BENCH_SYNC_CUSTOMERS ?? 1_000_000);
const PARTS = (process.env.BENCH_SYNC_PARTS ?? 'push,bootstrap').split(',');

export async function run(): Promise<void> {
  if (PARTS.includes('push')) await pushBench();
  if (PARTS.includes('bootstrap')) await bootstrapBench();
}

async function pushBench(): Promise<void> {
  const hubDir = benchDir('sync-hub');
  cli(['demo', '--data-dir', hubDir, '--json']);
  const credentials = addNode(hubDir, 'bench-store');
  const hub = await startHub(hubDir);
  try {
    const config = storeConfig(benchDir('sync-store'), hub.url, credentials);
    const node = openNode(config, systemClock);
    const sync = createStoreSync(node, config, systemClock)!;
    const first = await runRound(sync, systemClock);
    if (!first.ok) throw new Error(`bootstrap failed: ${first.error}`);
    // Queue the commands as the API would: one write (and one command) per event.
    const queue = node.db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        const id = node.newId();
        node.writes.write({ kind: 'events.create', payload: { event_id: id } }, (tx) =>
          tx.insert('events', { id, event_type_id: 'bench', customer_id: DEMO_IDS.customerJana, external_id: `bench-${i}`, data: '{}', created_at: new Date().toISOString() }),
        );
      }
    });
    for (let from = 0; from < COMMANDS; from += 10_000) queue(from, Math.min(COMMANDS, from + 10_000));
    const started = performance.now();
    const round = await runRound(sync, systemClock);
    const pushMs = performance.now() - started;
    if (!round.ok || round.pushed !== COMMANDS) throw new Error(`push failed: ${JSON.stringify(round)}`);
    await sync.client.close();
    node.close();

    const baselineMs = insertBaseline(COMMANDS);
    line(`push + apply ${COMMANDS.toLocaleString('en')} commands`, `${seconds(pushMs)}  ${rate(COMMANDS, pushMs)}  (${verdict(pushMs, 30_000)} 30 s)`);
    line('baseline: bare inserts, 500-row transactions', `${seconds(baselineMs)}  ${rate(COMMANDS, baselineMs)}`);
    line('ratio push / baseline', `${(pushMs / baselineMs).toFixed(1)}×`);
    line('hub peak RSS', megabytes(peakRss(hub.pid)));
  } finally {
    await hub.stop();
  }
}

function insertBaseline(count: number): number {
  const db = openDatabase(join(benchDir('sync-baseline'), 'baseline.sqlite'));
  db.exec('CREATE TABLE events (id TEXT PRIMARY KEY, event_type_id TEXT, customer_id TEXT, external_id TEXT, data TEXT, created_at TEXT, hlc TEXT, last_change TEXT)');
  const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const started = performance.now();
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      insert.run(`${i}`.padStart(26, '0'), 'bench', DEMO_IDS.customerJana, `bench-${i}`, '{}', new Date().toISOString(), 'x', 'y');
    }
  });
  for (let from = 0; from < count; from += 500) batch(from, Math.min(count, from + 500));
  const ms = performance.now() - started;
  db.close();
  return ms;
}

async function bootstrapBench(): Promise<void> {
  const kept = process.env.BENCH_SYNC_HUB_DIR;
  const hubDir = kept ?? benchDir('bootstrap-hub');
  if (kept && existsSync(databaseFile(kept))) {
    line('reused hub', kept);
  } else {
    cli(['demo', '--data-dir', hubDir, '--json']);
    addNode(hubDir, 'bench-reporting-store');
    const generated = generateCustomers(hubDir, CUSTOMERS);
    line(`hub generated ${CUSTOMERS.toLocaleString('en')} customers with cards and balances`, seconds(generated));
    const settled = await settleAll(hubDir, 'bench-reporting-store');
    line('hub settled their states', seconds(settled));
  }
  const credentials = addNode(hubDir, `bench-new-store-${Date.now()}`);
  const hub = await startHub(hubDir);
  try {
    const config = storeConfig(benchDir('bootstrap-store'), hub.url, credentials);
    const node = openNode(config, systemClock);
    const sync = createStoreSync(node, config, systemClock)!;
    const started = performance.now();
    const round = await runRound(sync, systemClock);
    const ms = performance.now() - started;
    if (!round.ok || !round.bootstrapped) throw new Error(`bootstrap failed: ${JSON.stringify(round)}`);
    const rows = (node.db.prepare('SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM cards) + (SELECT count(*) FROM customer_states) AS n').get() as { n: number }).n;
    const records = (node.db.prepare('SELECT count(*) AS n FROM point_records').get() as { n: number }).n;
    await sync.client.close();
    node.close();

    const baselineMs = copyBaseline(hubDir);
    line(`bootstrap ${rows.toLocaleString('en')} customer, card and state rows`, `${seconds(ms)}  ${rate(rows, ms)}  (${verdict(ms, 20_000)} 20 s)`);
    line('point records the store received', records.toLocaleString('en'));
    line('baseline: ATTACH + INSERT … SELECT copy', `${seconds(baselineMs)}  ${rate(rows, baselineMs)}`);
    line('ratio bootstrap / baseline', `${(ms / baselineMs).toFixed(1)}×`);
    line('hub peak RSS', megabytes(peakRss(hub.pid)));
    line('store (this process) peak RSS', megabytes(peakRss()));
  } finally {
    await hub.stop();
  }
}

/** Customers, cards and a point record each, written through the hub's write path (which publishes their states), in key order, 10,000 a transaction. */
function generateCustomers(hubDir: string, count: number): number {
  const node = openNode(loadConfig({ env: {}, overrides: { mode: 'hub', data_dir: hubDir } }), systemClock);
  const started = performance.now();
  const now = new Date().toISOString();
  const validTo = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const batch = (from: number, to: number) =>
    node.writes.write(null, (tx) => {
      for (let i = from; i < to; i += 1) {
        const id = node.newId();
        tx.insert('customers', { id, first_name: `First${i}`, last_name: `Last${i}`, email: `customer${i}@example.com`, language_id: 'cs', store_id: DEMO_IDS.storeCentral });
        tx.insert('cards', { id: node.newId(), customer_id: id, card_number: String(3_000_000_000_000 + i) });
        tx.insert('point_records', { id: node.newId(), customer_id: id, kind: 'collection', points_milli: 100_000, valid_to: validTo, created_at: now, state: 1 });
      }
    });
  for (let from = 0; from < count; from += 10_000) batch(from, Math.min(count, from + 10_000));
  node.close();
  return performance.now() - started;
}

/**
 * A chain at rest: a store has reported pushing everything up to now, and the hub has settled
 * every state to its lots (src/loyalty/state-settling.ts), as it does every
 * `sync.settle_interval_seconds` while its stores report. Without this the new store's report
 * at its bootstrap would be the chain's first, and the hub would settle every state during
 * the bootstrap: once in a hub's life, and not what a store joining a running chain meets.
 */
async function settleAll(hubDir: string, reportingStore: string): Promise<number> {
  const node = openNode(loadConfig({ env: {}, overrides: { mode: 'hub', data_dir: hubDir } }), systemClock);
  const started = performance.now();
  const reporter = node.db.prepare<[string], string>('SELECT id FROM nodes WHERE name = ?').pluck().get(reportingStore)!;
  new NodeClocks(node.db, node.hlc, systemClock).report(reporter, node.hlc.now());
  while ((await settleStates(node.states!, node.writes, 100)) > 0);
  node.close();
  return performance.now() - started;
}

function copyBaseline(hubDir: string): number {
  const target = new Database(join(benchDir('bootstrap-baseline'), 'copy.sqlite'));
  target.pragma('journal_mode = WAL');
  target.pragma('synchronous = FULL');
  const source = databaseFile(hubDir);
  const started = performance.now();
  target.exec(`ATTACH DATABASE '${source}' AS hub`);
  target.exec('CREATE TABLE customers AS SELECT * FROM hub.customers WHERE 0');
  target.exec('CREATE TABLE cards AS SELECT * FROM hub.cards WHERE 0');
  target.exec('CREATE TABLE customer_states AS SELECT * FROM hub.customer_states WHERE 0');
  target.transaction(() => {
    target.exec('INSERT INTO customers SELECT * FROM hub.customers');
    target.exec('INSERT INTO cards SELECT * FROM hub.cards');
    target.exec('INSERT INTO customer_states SELECT * FROM hub.customer_states');
  })();
  const ms = performance.now() - started;
  target.close();
  return ms;
}
