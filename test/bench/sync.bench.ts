/**
 * Sync throughput (sync issue, acceptance 6):
 *  A. Push: a store's catch-up after an outage. BENCH_SYNC_OPERATIONS (20,000) API calls a
 *     store takes while its hub is down, four in five send-purchase bills with a card (points
 *     earned), one in five assign-points, over a pool of customers; then the hub comes back
 *     and the whole backlog is pushed and applied, timed from the first push to the drained
 *     outbox. Measured for this checkout and for the baseline BENCH_SYNC_BASE (by default
 *     ce0c981, protocol 1: the hub writes the rows the store sent), built in the same run in a git
 *     worktree (baseline-build.ts); each build runs its own hub process and its own store
 *     (its dist/, in this process). Each build queues once; BENCH_SYNC_PUSH_ROUNDS (3) copies
 *     of its queued store and hub are pushed, the builds alternating, and the median counts.
 *     Target: this checkout at least 0.8× the baseline's commands/s.
 *  B. Rows: 100,000 events.create commands queued at a store, pushed to and applied by a hub
 *     process (target ≤ 30 s). Baseline: the same rows inserted straight into a SQLite file in
 *     500-row transactions — what the hub's apply costs beyond the bare writes (target: the
 *     push's rows/s ≥ 0.1× the baseline's). Also the CPU time the hub and the store spent on the
 *     push, which moves far less than the rates with the load of a shared machine.
 *  C. A new store bootstrapping 1,000,000 customers with cards and balances from a hub
 *     process: each customer has a point record at the hub, so the hub holds a customer
 *     state for each, settled as a chain at rest holds it (target ≤ 20 s, scopes issue; the
 *     store receives the states, not the records). The store (this process) runs the round
 *     with its checkpoint worker and log flushes started, as its daemon's writer thread does.
 *     Baseline: the same tables copied file to file with ATTACH + INSERT … SELECT — what the
 *     snapshot stream costs beyond a local copy (target ≤ 2.5×); with the CPU time of each side
 *     and of the copy.
 *  D. Flood: a back-office read of a customer at a hub process, idle and while 20 pushers of
 *     8 MB and 10 snapshot readers ask of the hub all its limits let them (sync-flood-part.ts),
 *     then while one node reads on 20 connections, asking again the moment it is answered;
 *     target: the read's p99 during each flood at most 3× idle, and an honest store's rounds complete.
 * Prints rows/s, the ratios and the hub's peak RSS. BENCH_SYNC_PARTS picks the parts
 * (`push`, `rows`, `bootstrap`, `flood`; all by default). BENCH_SYNC_HUB_DIR names a folder to keep C's
 * generated and settled hub in: a later run on the same folder reuses it (the size it was
 * made with is the caller's to keep), for re-runs and profiles of the bootstrap alone.
 * BENCH_SERVER_NODE_FLAGS reaches every hub process (cluster.ts), e.g. to profile A's hubs.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino from 'pino';
import type { createApp } from '../../src/root/app.js';
import { systemClock } from '../../src/core/clock.js';
import { startCheckpointer } from '../../src/db/checkpointer.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { loadConfig } from '../../src/core/config.js';
import type { startServer } from '../../src/root/server.js';
import { databaseFile, openNode } from '../../src/root/node.js';
import { settleStates } from '../../src/loyalty/state-settling.js';
import { runRound } from '../../src/sync/store/agent.js';
import { NodeClocks } from '../../src/sync/hub/node-clocks.js';
import { createStoreSync } from '../../src/root/store.js';
import { buildBaseline, checkoutCommit } from './baseline-build.js';
import { floodBench } from './sync-flood-part.js';
import { demoBill } from './demo-bills.js';
import { addNode, benchDir, demoBearer, demoHubFolder, type ServerProcess, spawnServer, startHub, storeConfig } from '../support/cluster.js';
import { line, megabytes, peakRss, rate, seconds, verdict } from './report.js';
import { addCustomerPool, poolCardNumber, poolCustomerId } from '../support/customer-pool.js';
import { queueEvents } from '../support/queued-events.js';
import { sqliteOnly } from '../../src/db/sqlite.js';

const COMMANDS = Number(process.env.BENCH_SYNC_COMMANDS ?? 100_000);
const CUSTOMERS = Number(process.env.BENCH_SYNC_CUSTOMERS ?? 1_000_000);
const PARTS = (process.env.BENCH_SYNC_PARTS ?? 'push,rows,bootstrap,flood').split(',');
const BASE = process.env.BENCH_SYNC_BASE ?? 'ce0c981';
const OPERATIONS = Number(process.env.BENCH_SYNC_OPERATIONS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_SYNC_PUSH_ROUNDS ?? 3);
/** The customers the push's bills and assignments go to: two or so operations each, well within a node's daily limits. */
const POOL = 10_000;
/** API calls in flight at the store while it queues, as a few desks make them. */
const DESKS = 8;
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The push's store keeps its file in memory where the machine has /dev/shm: its commits then
 * wait on no disk, and the calls queue two to three times as fast as on this machine's disk.
 * The hub's file stays on disk; the store's queueing is not what is measured.
 */
const STORE_PARENT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

export async function run(): Promise<void> {
  if (PARTS.includes('push')) await pushBench();
  if (PARTS.includes('rows')) await rowsBench();
  if (PARTS.includes('bootstrap')) await bootstrapBench();
  if (PARTS.includes('flood')) await floodBench();
}

/**
 * Each build's store queues the workload once; then each round pushes a copy of that store to
 * a copy of its hub, for every build, the builds' order alternating from round to round, so a
 * machine that slows down or speeds up during the run weighs on both.
 */
async function pushBench(): Promise<void> {
  line(
    'push: operations queued at a store, hub down',
    `${OPERATIONS.toLocaleString('en')}: 4 in 5 send-purchase with a card, 1 in 5 assign-points, ${POOL.toLocaleString('en')} customers`,
  );
  const baseline = buildBaseline(BASE);
  const builds: QueuedBuild[] = [];
  try {
    if ('skipped' in baseline) line(`main ${BASE}`, `baseline skipped: ${baseline.skipped}`);
    else builds.push(await queueBuild(`main ${baseline.commit} (baseline)`, baseline.root));
    builds.push(await queueBuild(`branch ${checkoutCommit() ?? 'this checkout'} (this checkout)`, CHECKOUT));
    for (const build of builds)
      line(
        `${build.name}: queued at the store`,
        `${build.commands.toLocaleString('en')} commands  ${seconds(build.queueMs)}  ${rate(OPERATIONS, build.queueMs)}`,
      );
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) build.pushes.push(await pushCopy(build));
    }
    for (const build of builds) {
      const ms = median(build.pushes.map((push) => push.ms));
      const rounds = build.pushes.map((push) => rate(build.commands, push.ms));
      line(`${build.name}: push + apply, median of ${ROUNDS}`, `${seconds(ms)}  ${rate(build.commands, ms)}  (rounds ${rounds.join(', ')})`);
      line(`${build.name}: hub peak RSS`, megabytes(Math.max(...build.pushes.map((push) => push.hubRss))));
    }
    if (builds.length === 2) {
      const [main, branch] = builds as [QueuedBuild, QueuedBuild];
      const rateOf = (build: QueuedBuild, ms: number) => build.commands / ms;
      const ratio = rateOf(branch, median(branch.pushes.map((push) => push.ms))) / rateOf(main, median(main.pushes.map((push) => push.ms)));
      const byRound = main.pushes.map((push, round) => (rateOf(branch, branch.pushes[round]!.ms) / rateOf(main, push.ms)).toFixed(2));
      line('ratio branch / main, commands/s (medians)', `${ratio.toFixed(2)}×  (rounds ${byRound.join(', ')}; ${verdict(ratio, 0.8, false)} ≥ 0.8×)`);
    }
  } finally {
    if (!('skipped' in baseline)) baseline.remove();
  }
}

/** One build with its store's queue, ready to push: the hub's and the store's folders, as they stood when the store had queued. */
interface QueuedBuild {
  name: string;
  bin: string;
  code: StoreCode;
  hubDir: string;
  storeDir: string;
  credentials: { node_name: string; node_secret: string };
  queueMs: number;
  commands: number;
  pushes: { ms: number; hubRss: number }[];
}

/** The store side of a build, from its dist/: what an in-process store daemon is made of. */
interface StoreCode {
  loadConfig: typeof loadConfig;
  createApp: typeof createApp;
  startServer: typeof startServer;
  openNode: typeof openNode;
  createStoreSync: typeof createStoreSync;
  runRound: typeof runRound;
}

async function storeCode(root: string): Promise<StoreCode> {
  // Each module by its path in this tree, else where an older tree has it.
  const load = (paths: string[]) => {
    const path = paths.find((one) => existsSync(join(root, 'dist', one)));
    if (!path) throw new Error(`${root}: none of ${paths.join(', ')} built`);
    return import(pathToFileURL(join(root, 'dist', path)).href);
  };
  const [config, app, server, node, wiring, agent] = await Promise.all(
    [
      ['core/config.js', 'config.js'],
      ['root/app.js', 'app.js'],
      ['root/server.js', 'server.js'],
      ['root/node.js', 'node.js'],
      ['root/store.js', 'wiring.js'],
      ['sync/store/agent.js', 'sync/agent.js'],
    ].map(load),
  );
  return {
    loadConfig: config.loadConfig,
    createApp: app.createApp,
    startServer: server.startServer,
    openNode: node.openNode,
    createStoreSync: wiring.createStoreSync,
    runRound: agent.runRound,
  };
}

/**
 * The workload queued on one build (the checkout at `root`, built): its hub process on the
 * demo chain and the pool, its store daemon bootstrapped from it; then the hub stops and the
 * store takes the operations over HTTP, queueing a command for each.
 */
async function queueBuild(name: string, root: string): Promise<QueuedBuild> {
  const bin = join(root, 'bin', 'loyaltyd');
  const loyaltyd = (args: string[], env: Record<string, string> = {}) =>
    execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const hubDir = benchDir('push-hub');
  loyaltyd(['demo', '--data-dir', hubDir, '--json'], { LOYALTYD_MODE: 'hub' });
  const credentials = JSON.parse(
    loyaltyd([
      'nodes',
      'add',
      '--name',
      'bench-store',
      '--store',
      DEMO_IDS.storeCentral,
      '--store',
      DEMO_IDS.storeAirport,
      '--data-dir',
      hubDir,
      '--json',
    ]),
  ) as {
    node_name: string;
    node_secret: string;
  };
  addCustomerPool(hubDir, POOL);
  const code = await storeCode(root);
  const storeDir = benchDir('push-store', STORE_PARENT);
  const closing: (() => unknown)[] = [];
  try {
    const hub = await serveHub(bin, hubDir);
    let hubUp = true;
    closing.push(() => (hubUp ? hub.stop() : undefined));
    const config = pushStoreConfig(code, storeDir, hub.url, credentials);
    const app = code.createApp({ config, clock: systemClock, log: pino({ level: 'silent' }) });
    closing.push(() => app.close());
    const server = await code.startServer(app, '127.0.0.1', 0);
    closing.push(async () => {
      // The daemon's checkpointer is a worker thread that does not hold the process: with the
      // hub down nothing else does, and the process would end while the worker stops.
      const holding = setInterval(() => {}, 1000);
      await server.close();
      clearInterval(holding);
    });
    const sync = code.createStoreSync(app.node, config, systemClock)!;
    closing.push(() => sync.client.close());

    const first = await code.runRound(sync, systemClock);
    if (!first.ok || !first.bootstrapped) throw new Error(`${name}: bootstrap failed: ${JSON.stringify(first)}`);
    await hub.stop();
    hubUp = false;
    const started = performance.now();
    await queueOperations(server.url);
    const queueMs = performance.now() - started;
    const commands = pendingCommands(app.node.db);
    return { name, bin, code, hubDir, storeDir, credentials, queueMs, commands, pushes: [] };
  } finally {
    await closeAll(closing);
  }
}

/** One round of a build: a copy of its queued store pushes everything to a copy of its hub, timed from the first push to the drained outbox. */
async function pushCopy(build: QueuedBuild): Promise<{ ms: number; hubRss: number }> {
  const hubDir = benchDir('push-hub-round');
  cpSync(build.hubDir, hubDir, { recursive: true });
  const storeDir = benchDir('push-store-round', STORE_PARENT);
  cpSync(build.storeDir, storeDir, { recursive: true });
  const closing: (() => unknown)[] = [
    () => rmSync(hubDir, { recursive: true, force: true }),
    () => rmSync(storeDir, { recursive: true, force: true }),
  ];
  try {
    const hub = await serveHub(build.bin, hubDir);
    closing.push(() => hub.stop());
    const config = pushStoreConfig(build.code, storeDir, hub.url, build.credentials);
    const node = build.code.openNode(config, systemClock);
    closing.push(() => node.close());
    const sync = build.code.createStoreSync(node, config, systemClock)!;
    closing.push(() => sync.client.close());

    const started = performance.now();
    const pushed = await sync.pusher.pushAll();
    const ms = performance.now() - started;
    // The baseline's pusher knows no held commands.
    const held = pushed.held ?? 0;
    const left = pendingCommands(node.db);
    if (pushed.sent !== build.commands || pushed.rejected > 0 || held > 0 || left > 0) {
      throw new Error(
        `${build.name}: push of ${build.commands} commands: sent ${pushed.sent}, rejected ${pushed.rejected}, held ${held}, ${left} left`,
      );
    }
    return { ms, hubRss: peakRss(hub.pid) };
  } finally {
    await closeAll(closing);
  }
}

/** Runs the steps that undo what was set up, last first: those of whatever was reached before a failure. */
async function closeAll(steps: (() => unknown)[]): Promise<void> {
  for (const step of steps.reverse()) await step();
}

function serveHub(bin: string, hubDir: string): Promise<ServerProcess> {
  return spawnServer([bin, 'serve', '--mode', 'hub', '--data-dir', hubDir, '--port', '0'], { LOYALTYD_LOG_LEVEL: 'warn' });
}

function pushStoreConfig(code: StoreCode, storeDir: string, hubUrl: string, credentials: { node_name: string; node_secret: string }) {
  return code.loadConfig({
    env: {},
    overrides: {
      mode: 'store',
      data_dir: storeDir,
      'hub.url': hubUrl,
      'node.name': credentials.node_name,
      'node.secret': credentials.node_secret,
      'log.level': 'silent',
    },
  });
}

function pendingCommands(db: Db): number {
  return db.prepare<[], number>("SELECT count(*) FROM outbox WHERE status = 'pending'").pluck().get()!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The workload's API calls at the store, DESKS at a time; every one must succeed. */
async function queueOperations(storeUrl: string): Promise<void> {
  const bearer = await demoBearer(storeUrl);
  const base = `${storeUrl}/rest-api/enterprise-interface/v1.0`;
  const paymentTime = new Date().toISOString();
  let next = 0;
  await Promise.all(
    Array.from({ length: DESKS }, async () => {
      while (next < OPERATIONS) {
        const { path, body, status } = operation(next++, paymentTime);
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
      }
    }),
  );
}

/** The i-th call of the workload: the same on every build. Customers are taken across the pool, not in order. */
function operation(i: number, paymentTime: string): { path: string; body: unknown; status: number } {
  const customer = (i * 7_919) % POOL;
  if (i % 5 === 4) return { path: '/points/actions/assign-points', body: { amount: 10, customer_id: poolCustomerId(customer) }, status: 204 };
  return {
    path: '/purchases/actions/send-purchase',
    body: {
      store_id: DEMO_IDS.storeCentral,
      cashdesk_number: 1 + (i % DESKS),
      card_number: poolCardNumber(customer),
      bill: demoBill(i, `push-${i}`, paymentTime),
    },
    status: 201,
  };
}

/** BENCH_SYNC_COMMANDS (100,000) events.create commands, each the rows the store wrote, against bare inserts of the same rows. */
async function rowsBench(): Promise<void> {
  const hubDir = benchDir('sync-hub');
  demoHubFolder(hubDir);
  const credentials = addNode(hubDir, 'bench-store');
  const hub = await startHub(hubDir);
  try {
    const config = storeConfig(benchDir('sync-store'), hub.url, credentials);
    const node = openNode(config, systemClock);
    const sync = createStoreSync(node, config, systemClock)!;
    const first = await runRound(sync, systemClock);
    if (!first.ok) throw new Error(`bootstrap failed: ${first.error}`);
    queueEvents(node, COMMANDS, 'bench');
    const hubCpuBefore = cpuSecondsOf(hub.pid);
    const storeCpuBefore = process.cpuUsage();
    const started = performance.now();
    const round = await runRound(sync, systemClock);
    const pushMs = performance.now() - started;
    const hubCpu = cpuSecondsOf(hub.pid) - hubCpuBefore;
    const storeCpu = cpuSecondsOf(process.cpuUsage(storeCpuBefore));
    if (!round.ok || round.pushed !== COMMANDS || round.rejected > 0 || round.held > 0) throw new Error(`push failed: ${JSON.stringify(round)}`);
    await sync.client.close();
    node.close();

    const baselineMs = insertBaseline(COMMANDS);
    line(
      `rows: push + apply ${COMMANDS.toLocaleString('en')} events.create commands`,
      `${seconds(pushMs)}  ${rate(COMMANDS, pushMs)}  (${verdict(pushMs, 30_000)} 30 s)`,
    );
    line('rows: baseline: bare inserts, 500-row transactions', `${seconds(baselineMs)}  ${rate(COMMANDS, baselineMs)}`);
    const ratio = baselineMs / pushMs;
    line('rows: ratio push / baseline, rows/s', `${ratio.toFixed(3)}×  (${verdict(ratio, 0.1, false)} ≥ 0.1×)`);
    line(
      'rows: CPU of the push, hub process / store (this process)',
      `${seconds(hubCpu * 1000)} / ${seconds(storeCpu * 1000)}  (${perCommand(hubCpu)} / ${perCommand(storeCpu)} a command)`,
    );
    line('rows: hub peak RSS', megabytes(peakRss(hub.pid)));
  } finally {
    await hub.stop();
  }
}

/**
 * CPU seconds, user and system: of a process by its pid (all its threads, from /proc), or of a
 * process.cpuUsage() difference. On this shared machine the rates move with the load; the CPU
 * each side spent moves far less.
 */
function cpuSecondsOf(of: number | NodeJS.CpuUsage): number {
  if (typeof of !== 'number') return (of.user + of.system) / 1e6;
  // Fields 14 and 15 of /proc/PID/stat, after the command's closing parenthesis: utime and stime in clock ticks.
  const fields = readFileSync(`/proc/${of}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

function perCommand(cpuSeconds: number): string {
  return `${((cpuSeconds * 1e6) / COMMANDS).toFixed(0)} µs`;
}

function insertBaseline(count: number): number {
  const db = openDatabase(join(benchDir('sync-baseline'), 'baseline.sqlite'));
  db.exec(
    'CREATE TABLE events (id TEXT PRIMARY KEY, event_type_id TEXT, customer_id TEXT, external_id TEXT, data TEXT, created_at TEXT, hlc TEXT, last_change TEXT)',
  );
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
    demoHubFolder(hubDir);
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
    const silent = pino({ level: 'silent' });
    const stopCheckpointer = startCheckpointer(sqliteOnly(node.db, 'this bench'), silent);
    const stopFlusher = node.durability.startFlusher(silent);
    const hubCpuBefore = cpuSecondsOf(hub.pid);
    const storeCpuBefore = process.cpuUsage();
    const started = performance.now();
    const round = await runRound(sync, systemClock);
    const ms = performance.now() - started;
    const hubCpu = cpuSecondsOf(hub.pid) - hubCpuBefore;
    const storeCpu = cpuSecondsOf(process.cpuUsage(storeCpuBefore));
    if (!round.ok || !round.bootstrapped) throw new Error(`bootstrap failed: ${JSON.stringify(round)}`);
    const rows = (
      node.db
        .prepare('SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM cards) + (SELECT count(*) FROM customer_states) AS n')
        .get() as { n: number }
    ).n;
    const records = (node.db.prepare('SELECT count(*) AS n FROM point_records').get() as { n: number }).n;
    await sync.client.close();
    await Promise.all([stopFlusher(), stopCheckpointer()]);
    node.close();

    const baselineCpuBefore = process.cpuUsage();
    const baselineMs = copyBaseline(hubDir);
    const baselineCpu = cpuSecondsOf(process.cpuUsage(baselineCpuBefore));
    line(`bootstrap ${rows.toLocaleString('en')} customer, card and state rows`, `${seconds(ms)}  ${rate(rows, ms)}  (${verdict(ms, 20_000)} 20 s)`);
    line('bootstrap CPU, hub process / store (this process)', `${seconds(hubCpu * 1000)} / ${seconds(storeCpu * 1000)}`);
    line('point records the store received', records.toLocaleString('en'));
    line('baseline: ATTACH + INSERT … SELECT copy', `${seconds(baselineMs)}  ${rate(rows, baselineMs)}`);
    line('baseline CPU', seconds(baselineCpu * 1000));
    line('ratio bootstrap / baseline', `${(ms / baselineMs).toFixed(1)}×  (${verdict(ms / baselineMs, 2.5)} 2.5×)`);
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
        tx.insert('customers', {
          id,
          first_name: `First${i}`,
          last_name: `Last${i}`,
          email: `customer${i}@example.com`,
          language_id: 'cs',
          store_id: DEMO_IDS.storeCentral,
        });
        tx.insert('cards', { id: node.newId(), customer_id: id, card_number: String(3_000_000_000_000 + i) });
        tx.insert('point_records', {
          id: node.newId(),
          customer_id: id,
          kind: 'collection',
          points_milli: 100_000,
          valid_to: validTo,
          created_at: now,
          state: 1,
        });
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
