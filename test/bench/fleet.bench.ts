/**
 * A fleet over time (scopes issue, acceptance 1 and 2): a hub process and BENCH_FLEET_STORES
 * (10) store processes (fleet-store.ts), each on a clock the bench moves, behind one proxy
 * that counts the bytes each store pulls and can cut the hub off.
 *
 * 1. A simulated week: every day each store sells BENCH_FLEET_BILLS (150) bills to random
 *    customers of a shared pool, then syncs; on days 2 and 3 the hub is unreachable, and each
 *    store sells BENCH_FLEET_OUTAGE_BILLS (BENCH_FLEET_BILLS) bills a day (5,000 queue 100,000
 *    commands across ten stores). At the heal, fleet rounds (every store one round, together)
 *    run until every node's balances are identical: the rounds, the seconds and the hub's
 *    commands/s are printed. Baseline: the same hub's bulk apply of the same commands. Before
 *    the heal the hub's database is copied (SQLite's backup) and each store's pending pushes
 *    read (fleet-store.ts `pending`); after it, those pushes are applied to the copy in this
 *    process, store after store, each parsed and applied as the push endpoint does
 *    (src/sync/hub/hub-routes.ts), in one transaction a push, without HTTP, the stores or
 *    their settling; timed. The back office reads a customer at the hub (100 req/s from 10
 *    desks, hub-back-office.ts) for 10 s before the heal and for the first 10 s of its first
 *    round, when that round lasts as long: the p99s and their ratio (target ≤ 3×, the sync
 *    flood's).
 * 2. Growth: the stores' clocks run; store 0 alone sells 1,000 bills and the fleet syncs
 *    until the hub has settled the customers' states (src/loyalty/state-settling.ts). Each
 *    other store's growth per bill sold elsewhere, against store 0's per own bill (target
 *    ≤ 1 %), and the bytes each store pulled per foreign bill. Growth is the database's used
 *    pages (page_count less the freelist), which is what a file reaches once its free pages
 *    are reused. It is also given by scope (src/sync/protocol/scopes.ts; `node-local` for the node's
 *    own tables), and for store 1 by table, with the growth of the rows' content beside the
 *    pages': a table grows by whole pages as its rows grow and split them.
 * 3. Soak: one more store, on a hub of its own, with retention.local_days 0, takes
 *    BENCH_FLEET_SOAK (50,000) bills in chunks of 1,000 with a round after each (its clock two
 *    minutes on, so retention runs); its file size after half and after all of them (target
 *    < 10 % apart). Then send-purchase at 100 req/s for BENCH_FLEET_SOAK_SECONDS (30) with
 *    rounds every 500 ms and the store's clock running (target p99 ≤ 5 ms, synchronous=FULL),
 *    and the share the daemon's own timer saw answered within 5 ms; then the same load on the
 *    same folder served by `loyaltyd serve` (cluster.ts `startStore`): its writer thread, its
 *    sync agent's round a second, its wall clock moved by libfaketime to where the store's
 *    stood. Baselines: the same store's file size after the first half; for the p99, the same
 *    load on a bare node:http server that commits each body at FULL, 24 pages a commit
 *    (baseline-server.ts `write`), beside the soak's hub and store at rest: what this
 *    machine's disk and cores give any write at that rate. Its clock starts at the hub's (a
 *    store's facts are kept by the age of their stamps, which follow the newest clock the
 *    store has seen). BENCH_FLEET_PARTS (`week,soak`) runs a part alone.
 * BENCH_SERVER_NODE_FLAGS (cluster.ts) is given to the store processes' node too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { DEMO_IDS } from '../../src/demo/demo.js';
import { BalanceReader } from '../../src/loyalty/balance-reader.js';
import { databaseFile } from '../../src/root/node.js';
import pino from 'pino';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createApp } from '../../src/root/app.js';
import { PushRequest } from '../../src/sync/protocol/protocol.js';
import { scopeOf } from '../../src/sync/protocol/scopes.js';
import type { RoundOutcome } from '../../src/sync/store/agent.js';
import { addNode, benchDir, demoBearer, demoHubFolder, type ServerProcess, spawnServer, startHub, startStore } from '../support/cluster.js';
import { libfaketime } from '../support/faketime.js';
import { addCustomerPool, poolCardNumber, poolCustomerId } from '../support/customer-pool.js';
import { demoBill } from './demo-bills.js';
import { fixedRate } from './fixed-rate.js';
import { hubBackOffice } from './hub-back-office.js';
import { line, megabytes, rate, seconds, verdict } from './report.js';

const STORES = Number(process.env.BENCH_FLEET_STORES ?? 10);
const BILLS_PER_DAY = Number(process.env.BENCH_FLEET_BILLS ?? 150);
const OUTAGE_BILLS = Number(process.env.BENCH_FLEET_OUTAGE_BILLS ?? BILLS_PER_DAY);
/** How long the back office reads the hub, idle and in the heal's first round. */
const HEAL_READ_SECONDS = 10;
const CUSTOMERS = Number(process.env.BENCH_FLEET_CUSTOMERS ?? 2000);
const SOAK_BILLS = Number(process.env.BENCH_FLEET_SOAK ?? 50_000);
const GROWTH_BILLS = 1000;
const DAYS = 7;
const OUTAGE = new Set([2, 3]);
const DAY = 86_400_000;
const STORE_SCRIPT = fileURLToPath(new URL('./fleet-store.ts', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
const PARTS = new Set((process.env.BENCH_FLEET_PARTS ?? 'week,soak').split(','));

interface Stats {
  usedBytes: number;
  fileBytes: number;
  /** Each table with its indexes: its pages' bytes, and the bytes of its rows' content in them. */
  tables: Record<string, { bytes: number; payload: number }>;
  outbox: number;
  balances: string;
}

/** A fleet-store.ts process, asked over IPC. */
class FleetStore {
  private next = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  private readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    readonly url: string,
    readonly dataDir: string,
    readonly credentials: { node_name: string; node_secret: string },
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(`${name}: ${message.error}`));
      else waiter?.resolve(message.result);
    });
  }

  static start(name: string, hubUrl: string, hubDir: string, startMs: number, localDays: number): Promise<FleetStore> {
    const credentials = addNode(hubDir, name);
    const dataDir = benchDir(name);
    const args = [dataDir, hubUrl, credentials.node_name, credentials.node_secret, String(startMs), String(localDays)];
    const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const child = fork(STORE_SCRIPT, args, { execArgv: [...flags, '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('message', (message: { ready?: string }) => resolve(new FleetStore(name, message.ready!, dataDir, credentials, child)));
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    });
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    const id = (this.next += 1);
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...message, id });
    });
  }

  /** Asks the process to close its server and database; done once it has exited. */
  stop(): Promise<void> {
    if (this.child.connected) this.child.disconnect();
    return this.exited;
  }
}

/** Forwards to the hub, counting the bytes of each store's pulls; `down` cuts every connection. */
class HubProxy {
  down = false;
  readonly pulledBytes = new Map<string, number>();
  private readonly server: Server;

  constructor(private readonly hub: URL) {
    this.server = createServer((incoming, outgoing) => {
      if (this.down) {
        incoming.socket.destroy();
        return;
      }
      const node = Buffer.from((incoming.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')[0]!;
      const forwarded = request(
        { host: hub.hostname, port: hub.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => {
            if (incoming.url?.startsWith('/sync/v1/changes')) this.pulledBytes.set(node, (this.pulledBytes.get(node) ?? 0) + chunk.length);
          });
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
  }

  listen(): Promise<string> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}`)),
    );
  }

  close(): void {
    this.server.close();
    this.server.closeAllConnections();
  }
}

export async function run(): Promise<void> {
  if (PARTS.has('week')) await weekAndGrowth();
  if (PARTS.has('soak')) await soak();
}

/**
 * A hub process on the demo chain and the customer pool. The soak store's clock runs ahead of
 * the hub's, two minutes a thousand bills, so that its retention runs: the hub takes stamps
 * within a day of its own clock.
 */
async function startFleetHub(name: string): Promise<{ hub: ServerProcess; hubDir: string }> {
  const hubDir = benchDir(name);
  demoHubFolder(hubDir);
  addCustomerPool(hubDir, CUSTOMERS, 10 * DAY);
  return { hub: await startHub(hubDir, { LOYALTYD_SYNC_MAX_CLOCK_SKEW_SECONDS: String(86_400) }), hubDir };
}

async function weekAndGrowth(): Promise<void> {
  const { hub, hubDir } = await startFleetHub('fleet-hub');
  const proxy = new HubProxy(new URL(hub.url));
  const hubUrl = await proxy.listen();
  const start = Date.now() - 9 * DAY;
  const stores: FleetStore[] = [];
  try {
    for (let s = 0; s < STORES; s += 1) stores.push(await FleetStore.start(`fleet-${s}`, hubUrl, hubDir, start, 35));
    await bootstrapAll(stores);
    line(
      `fleet: 1 hub, ${STORES} stores, ${CUSTOMERS.toLocaleString('en')} customers`,
      `${BILLS_PER_DAY} bills a store a day, hub cut off on days 2 and 3 (${OUTAGE_BILLS} bills a store a day)`,
    );
    await week(stores, proxy, { url: hub.url, dir: hubDir }, start);
    await growth(stores, proxy, hubDir, start + DAYS * DAY);
  } finally {
    await Promise.all(stores.map((store) => store.stop()));
    proxy.close();
    await hub.stop();
  }
}

async function week(stores: FleetStore[], proxy: HubProxy, hub: { url: string; dir: string }, start: number): Promise<void> {
  let billNo = 0;
  for (let day = 0; day < DAYS; day += 1) {
    const healing = !OUTAGE.has(day) && OUTAGE.has(day - 1);
    proxy.down = OUTAGE.has(day);
    await Promise.all(stores.map((store) => store.ask({ op: 'advance', to: start + day * DAY + 9 * 3_600_000 })));
    if (healing) await heal(stores, hub, start + day * DAY);
    const count = OUTAGE.has(day) ? OUTAGE_BILLS : BILLS_PER_DAY;
    const from = billNo;
    billNo += count;
    const sold = await Promise.all(
      stores.map((store) =>
        store.ask<{ answered: number; failed: number; firstError?: string }>({ op: 'sell', bills: bills(store.name, from, count) }),
      ),
    );
    const failed = sold.find((outcome) => outcome.failed > 0);
    if (failed) throw new Error(`send-purchase failed: ${failed.firstError}`);
    const rounds = await fleetRound(stores);
    line(
      `day ${day}${proxy.down ? ' (hub unreachable)' : ''}`,
      `${sold.reduce((sum, outcome) => sum + outcome.answered, 0)} bills, rounds ok ${rounds.filter((round) => round.ok).length}/${stores.length}`,
    );
  }
  // Every bill's day is before the hub's yesterday, so each store's week counts on one day's limits.
  line("commands held past a node's limits", heldCommands(hub.dir).toLocaleString('en'));
}

/** The commands the hub holds for an operator (src/sync/hub/held-commands.ts), read from its file. */
function heldCommands(hubDir: string): number {
  const db = new Database(databaseFile(hubDir), { readonly: true });
  try {
    return db.prepare<[], number>("SELECT count(*) FROM held_commands WHERE state = 'held'").pluck().get()!;
  } finally {
    db.close();
  }
}

/**
 * After the outage: fleet rounds until every store's balances are the hub's and no outbox holds
 * anything; then the baseline, the same pushes applied in bulk to a copy of the hub as it stood
 * before the heal.
 */
async function heal(stores: FleetStore[], hub: { url: string; dir: string }, at: number): Promise<void> {
  const hubDir = hub.dir;
  const queued = (await Promise.all(stores.map((store) => store.ask<Stats>({ op: 'stats', customers: [], at })))).reduce(
    (sum, stats) => sum + stats.outbox,
    0,
  );
  const copyDir = benchDir('fleet-hub-copy');
  const source = new Database(databaseFile(hubDir), { readonly: true });
  await source.backup(databaseFile(copyDir));
  source.close();
  const pushes = await Promise.all(stores.map(async (store) => ({ node: store.name, pushes: await store.ask<StorePush[]>({ op: 'pending' }) })));
  const backOffice = await hubBackOffice(hub.url, HEAL_READ_SECONDS);
  const idle = await backOffice();
  const reading = backOffice();
  const { perSecond: healRate, firstRoundMs } = await healRounds(stores, hubDir, at, queued);
  const read = await reading;
  line('heal: the hub read by its back office, idle', `p50 ${idle.p50} ms  p99 ${idle.p99} ms  (baseline)`);
  if (firstRoundMs < HEAL_READ_SECONDS * 1000) {
    line('heal: the hub read by its back office, in the first round', `not measured: the round ended first (raise BENCH_FLEET_OUTAGE_BILLS)`);
  } else {
    const readRatio = Number(read.p99) / Number(idle.p99);
    line(
      'heal: the hub read by its back office, in the first round',
      `p50 ${read.p50} ms  p99 ${read.p99} ms  (${readRatio.toFixed(2)}× idle: ${verdict(readRatio, 3)} 3×)  errors ${read.errors}`,
    );
  }
  const bulk = bulkApply(copyDir, pushes);
  line(
    'heal: baseline, the same pushes applied in bulk to a copy of the hub',
    `${bulk.commands.toLocaleString('en')} commands  ${seconds(bulk.ms)}  ${rate(bulk.commands, bulk.ms)}  (${bulk.pushes} pushes; ${bulk.statuses})`,
  );
  const ratio = healRate / ((bulk.commands * 1000) / bulk.ms);
  line('heal: ratio heal / bulk, commands/s', `${ratio.toFixed(2)}×  (${verdict(ratio, 0.5, false)} ≥ 0.5×)`);
}

/** One push a store would make: its request text (fleet-store.ts `pending`). */
interface StorePush {
  text: string;
  commands: number;
}

/**
 * The stores' pushes applied to the hub copy in `copyDir`, in this process: each request text
 * parsed and its commands applied as the push endpoint does, in one transaction a push
 * (src/sync/hub/hub-commands.ts `apply`); timed from the first parse to the last commit.
 */
function bulkApply(
  copyDir: string,
  stores: { node: string; pushes: StorePush[] }[],
): { commands: number; pushes: number; ms: number; statuses: string } {
  const config = loadConfig({ env: {}, overrides: { mode: 'hub', data_dir: copyDir, 'sync.max_clock_skew_seconds': 86_400, 'log.level': 'silent' } });
  const app = createApp({ config, clock: systemClock, log: pino({ level: 'silent' }) });
  try {
    const commands = app.hubCommands!;
    const nodeIds = app.node.db.prepare<[string], string>('SELECT id FROM nodes WHERE name = ?').pluck();
    const statuses = new Map<string, number>();
    let applied = 0;
    let count = 0;
    const started = performance.now();
    for (const store of stores) {
      const nodeId = nodeIds.get(store.node)!;
      for (const push of store.pushes) {
        const request = PushRequest.parse(JSON.parse(push.text));
        const { results } = commands.apply(nodeId, request.generation, request.commands);
        for (const result of results) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        applied += results.length;
        count += 1;
      }
    }
    const ms = performance.now() - started;
    return { commands: applied, pushes: count, ms, statuses: [...statuses].map(([status, n]) => `${status} ${n.toLocaleString('en')}`).join(', ') };
  } finally {
    app.close();
  }
}

/** The heal's fleet rounds; its commands/s in the first round, and how long that round took. */
async function healRounds(stores: FleetStore[], hubDir: string, at: number, queued: number): Promise<{ perSecond: number; firstRoundMs: number }> {
  const started = performance.now();
  let pushed = 0;
  let pushMs = 0;
  for (let rounds = 1; rounds <= 20; rounds += 1) {
    const roundStarted = performance.now();
    const outcomes = await fleetRound(stores);
    if (rounds === 1) pushMs = performance.now() - roundStarted;
    pushed += outcomes.reduce((sum, outcome) => sum + outcome.pushed, 0);
    const customers = customerIds();
    const hubBalances = balancesAt(hubDir, customers, at);
    const stats = await Promise.all(stores.map((store) => store.ask<Stats>({ op: 'stats', customers, at })));
    if (stats.every((stat) => stat.outbox === 0 && stat.balances === hubBalances)) {
      const ms = performance.now() - started;
      line('heal: commands queued during the outage', queued.toLocaleString('en'));
      line('heal: fleet rounds until all balances agree', `${rounds}  ${seconds(ms)}`);
      line('heal: hub commands/s in the first round', `${Math.round((pushed * 1000) / pushMs).toLocaleString('en')} /s`);
      return { perSecond: (pushed * 1000) / pushMs, firstRoundMs: pushMs };
    }
  }
  throw new Error('the fleet did not converge in 20 rounds');
}

async function growth(stores: FleetStore[], proxy: HubProxy, hubDir: string, at: number): Promise<void> {
  await Promise.all(stores.map((store) => store.ask({ op: 'advance', to: at })));
  // The stores' clocks run from here, as a till's does between its bills (fleet-store.ts `run`).
  await Promise.all(stores.map((store) => store.ask({ op: 'run' })));
  await fleetRound(stores);
  const before = await Promise.all(stores.map((store) => store.ask<Stats>({ op: 'stats', customers: [], at })));
  const pulledBefore = new Map(proxy.pulledBytes);
  const sold = await stores[0]!.ask<{ answered: number }>({ op: 'sell', bills: bills('growth', 0, GROWTH_BILLS) });
  await fleetRound(stores);
  // The stores' reports let the horizon pass the bills once each store's clock has passed
  // them, which a round that pulled while store 0 still pushed did not. The fleet goes on
  // syncing, as it would every sync.interval_seconds, until the hub has settled the states
  // (their tails folded into lots); the stores then pull them.
  await settled(hubDir, () => fleetRound(stores));
  await fleetRound(stores);
  const after = await Promise.all(stores.map((store) => store.ask<Stats>({ op: 'stats', customers: [], at })));
  const own = (after[0]!.usedBytes - before[0]!.usedBytes) / sold.answered;
  const foreign = after.slice(1).map((stats, s) => (stats.usedBytes - before[s + 1]!.usedBytes) / sold.answered);
  const pulled = stores.slice(1).map((store) => ((proxy.pulledBytes.get(store.name) ?? 0) - (pulledBefore.get(store.name) ?? 0)) / sold.answered);
  const worst = Math.max(...foreign);
  line('growth per own bill (store 0)', `${Math.round(own).toLocaleString('en')} B`);
  line(
    'growth per foreign bill, other stores',
    `max ${Math.round(worst)} B, mean ${Math.round(mean(foreign))} B  (${((worst / own) * 100).toFixed(2)} % of own; target ≤ 1 %)`,
  );
  const grownBy = (s: number, table: string, part: 'bytes' | 'payload') =>
    ((after[s]!.tables[table]?.[part] ?? 0) - (before[s]!.tables[table]?.[part] ?? 0)) / sold.answered;
  const scopes = new Map<string, number>();
  for (let s = 1; s < stores.length; s += 1) {
    const grown = new Map<string, number>();
    for (const table of Object.keys(after[s]!.tables)) {
      const scope = scopeOf(table) ?? 'node-local';
      grown.set(scope, (grown.get(scope) ?? 0) + grownBy(s, table, 'bytes'));
    }
    for (const [scope, bytes] of grown) scopes.set(scope, Math.max(scopes.get(scope) ?? -Infinity, bytes));
  }
  line('growth per foreign bill by scope, other stores (max)', [...scopes].map(([scope, bytes]) => `${scope} ${Math.round(bytes)} B`).join(', '));
  const grown = Object.keys(after[1]!.tables)
    .map((table) => [table, grownBy(1, table, 'bytes'), grownBy(1, table, 'payload')] as const)
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1]);
  line(
    'what grew at store 1, per foreign bill: pages (rows)',
    grown.map(([table, bytes, payload]) => `${table} ${Math.round(bytes)} B (${Math.round(payload)} B)`).join(', ') || 'nothing',
  );
  line('bytes pulled per foreign bill', `mean ${Math.round(mean(pulled))} B, max ${Math.round(Math.max(...pulled))} B`);
}

/**
 * The soak, on a hub of its own: the week's stores, their clocks days behind it and heard from
 * within the offline age, would hold the hub's horizon back, so that no state would ever
 * cover the soak's facts and retention could delete none of them. The store syncs with the
 * hub directly, not through the proxy: the proxy runs in this process, beside the load
 * generator whose latencies it would delay.
 */
async function soak(): Promise<void> {
  const { hub, hubDir } = await startFleetHub('fleet-soak-hub');
  const startMs = Date.now();
  const store = await FleetStore.start('fleet-soak', hub.url, hubDir, startMs, 0);
  let daemon: ServerProcess | undefined;
  try {
    let now = startMs;
    await store.ask({ op: 'round' });
    const sizes: number[] = [];
    for (let sold = 0; sold < SOAK_BILLS; sold += 1000) {
      const outcome = await store.ask<{ failed: number; firstError?: string }>({ op: 'sell', bills: bills('soak', sold, 1000) });
      if (outcome.failed > 0) throw new Error(`soak send-purchase failed: ${outcome.firstError}`);
      await store.ask({ op: 'advance', to: (now += 120_000) });
      await store.ask({ op: 'round' });
      if (sold + 1000 === SOAK_BILLS / 2 || sold + 1000 === SOAK_BILLS)
        sizes.push((await store.ask<Stats>({ op: 'stats', customers: [], at: now })).fileBytes);
    }
    const [half, full] = sizes as [number, number];
    line(`soak: file after ${(SOAK_BILLS / 2).toLocaleString('en')} bills (baseline)`, megabytes(half));
    line(
      `soak: file after ${SOAK_BILLS.toLocaleString('en')} bills`,
      `${megabytes(full)}  (${((full / half - 1) * 100).toFixed(1)} %; target < 10 %)`,
    );
    const baseline = await writeBaseline();
    line(
      'soak: baseline, a bare FULL commit of 24 pages at 100 req/s',
      `p50 ${baseline.p50} ms  p99 ${baseline.p99} ms  (baseline-server.ts write)  ${baseline.answered} answered, errors ${baseline.errors}`,
    );
    // A till's bills are stamped a few milliseconds apart. On a clock standing still every
    // record id shares one time part, and the ids a purchase derives for its records (a hash
    // after it, src/core/ids.ts) land anywhere in their indexes instead of at the end.
    await store.ask({ op: 'run' });
    const ranAt = Date.now();
    let sent = SOAK_BILLS;
    const body = () => JSON.stringify(bills('soak-p99', (sent += 1), 1)[0]);
    let rounding = true;
    const rounds = (async () => {
      while (rounding) {
        await store.ask({ op: 'round' });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const oneThread = await sendPurchases(store.url, body);
    rounding = false;
    await rounds;
    report('the store on one thread, a round every 500 ms', oneThread, baseline);
    await store.stop();
    // The same folder served as `loyaltyd serve` serves a store: its writer thread commits and
    // its sync agent runs a round a second, on the clock the store had reached.
    daemon = await startStore(store.dataDir, hub.url, store.credentials, {
      LD_PRELOAD: libfaketime(),
      FAKETIME: `+${Math.ceil((now - ranAt) / 1000)}`,
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
      LOYALTYD_RETENTION__LOCAL_DAYS: '0',
      LOYALTYD_OFFLINE__MAX_AGE_HOURS: String(24 * 365),
    });
    report('the store daemon (writer thread, a round a second)', await sendPurchases(daemon.url, body), baseline);
  } finally {
    await store.stop();
    await daemon?.stop();
    await hub.stop();
  }
}

/** The soak's load on a store: send-purchase at SOAK_RATE, and the share the daemon's own timer saw answered within 5 ms. */
async function sendPurchases(url: string, body: () => string): Promise<{ latency: Awaited<ReturnType<typeof fixedRate>>; within: number }> {
  const served = await servedWithin(url, SEND_PURCHASE_ROUTE, '0.005');
  const bearer = await demoBearer(url);
  const latency = await fixedRate(
    `${url}${SEND_PURCHASE_ROUTE}`,
    { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body,
    SOAK_RATE,
  );
  const after = await servedWithin(url, SEND_PURCHASE_ROUTE, '0.005');
  return { latency, within: (after.within - served.within) / (after.all - served.all) };
}

/** The soak's figures of one store (`who`): its latency against the baseline's, and the share its own timer saw within 5 ms. */
function report(who: string, { latency, within }: Awaited<ReturnType<typeof sendPurchases>>, baseline: { p99: string }): void {
  line(
    `soak: send-purchase at 100 req/s, ${who}`,
    `p50 ${latency.p50} ms  p99 ${latency.p99} ms  (${(Number(latency.p99) / Number(baseline.p99)).toFixed(2)}× the baseline's; targets p99 ≤ 5 ms, ≤ 1.6×)  ${latency.answered} answered, errors ${latency.errors}`,
  );
  line(`soak: ${who}: of those, timed by itself (/metrics)`, `${(within * 100).toFixed(1)} % within 5 ms`);
}

const SEND_PURCHASE_ROUTE = '/rest-api/enterprise-interface/v1.0/purchases/actions/send-purchase';
/** Ten desks of ten bills a second for BENCH_FLEET_SOAK_SECONDS (30): 3,000 answers, the 30 slowest above the p99. */
const SOAK_RATE = { desks: 10, perDesk: 10, seconds: Number(process.env.BENCH_FLEET_SOAK_SECONDS ?? 30) };

/** The soak's load on baseline-server.ts's FULL commit, beside the soak's hub and store, at rest. */
async function writeBaseline(): Promise<{ p50: string; p99: string; answered: number; errors: number }> {
  const server = await spawnServer(['--import', 'tsx', BASELINE, 'write', join(benchDir('write-baseline'), 'baseline.db')]);
  try {
    return await fixedRate(`${server.url}/`, { 'content-type': 'application/json' }, () => JSON.stringify(bills('baseline', 0, 1)[0]), SOAK_RATE);
  } finally {
    await server.stop();
  }
}

/**
 * How many calls of a route a daemon has answered, and how many within a bucket's bound, by
 * its own request timer (loyaltyd_http_request_duration_seconds): the server's share of a
 * latency, without the load generator's and the network's.
 */
async function servedWithin(url: string, route: string, bound: string): Promise<{ within: number; all: number }> {
  const lines = (await (await fetch(`${url}/metrics`)).text())
    .split('\n')
    .filter((text) => text.startsWith('loyaltyd_http_request_duration_seconds_bucket{') && text.includes(`route="${route}"`));
  const count = (le: string) =>
    Number(
      lines
        .find((text) => text.includes(`le="${le}"`))
        ?.split(' ')
        .at(-1) ?? 0,
    );
  return { within: count(bound), all: count('+Inf') };
}

/** Runs `round` until the hub has no customer state with a tail left to settle (src/loyalty/state-settling.ts). */
async function settled(hubDir: string, round: () => Promise<unknown>): Promise<void> {
  const db = new Database(databaseFile(hubDir), { readonly: true });
  try {
    const tails = db.prepare<[], number>('SELECT count(*) FROM customer_state_tails').pluck();
    for (let waited = 0; tails.get()! > 0; waited += 500) {
      if (waited > 30_000) {
        const clocks = db.prepare('SELECT node_id, pushed_through, reported_at FROM sync_node_clocks ORDER BY pushed_through').all();
        const first = db.prepare('SELECT min(first_stamp) FROM customer_state_tails').pluck().get();
        throw new Error(
          `the hub left ${tails.get()} customer states unsettled; oldest tail ${String(first)}, stores' reports ${JSON.stringify(clocks)}`,
        );
      }
      await round();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    db.close();
  }
}

/**
 * The stores' first rounds: the hub reads `sync_limits.snapshots_in_all` snapshots at once and
 * turns the other stores away, after which each tries again after the hub's Retry-After (a
 * second when it sent none), as its agent would.
 */
async function bootstrapAll(stores: FleetStore[]): Promise<void> {
  let waiting = stores;
  for (let attempt = 1; waiting.length > 0; attempt += 1) {
    const outcomes = await fleetRound(waiting);
    const refused = outcomes.flatMap((outcome, index) => (outcome.ok ? [] : [{ store: waiting[index]!, outcome }]));
    if (refused.length > 0 && attempt === 20) throw new Error(`a store did not bootstrap: ${JSON.stringify(refused[0]!.outcome)}`);
    if (refused.length > 0)
      await new Promise((resolve) => setTimeout(resolve, Math.max(...refused.map(({ outcome }) => outcome.retryAfterMs ?? 1000))));
    waiting = refused.map(({ store }) => store);
  }
}

function fleetRound(stores: FleetStore[]): Promise<RoundOutcome[]> {
  return Promise.all(stores.map((store) => store.ask<RoundOutcome>({ op: 'round' })));
}

/** Bills of two or three demo products for random customers of the pool. */
function bills(prefix: string, from: number, count: number): unknown[] {
  return Array.from({ length: count }, (_, n) => ({
    store_id: DEMO_IDS.storeCentral,
    cashdesk_number: 1,
    card_number: poolCardNumber(Math.floor(Math.random() * CUSTOMERS)),
    bill: demoBill(from + n, `${prefix}-${from + n}`, '2026-11-20T14:00:00+01:00'),
  }));
}

function customerIds(): string[] {
  return Array.from({ length: CUSTOMERS }, (_, i) => poolCustomerId(i));
}

/** The same digest fleet-store.ts makes, of the hub's balances, read from its file. */
function balancesAt(hubDir: string, customers: string[], at: number): string {
  const db = new Database(databaseFile(hubDir), { readonly: true });
  try {
    const reader = new BalanceReader(db);
    const digest = createHash('sha256');
    for (const customer of customers) {
      const { pointsMilli, creditMinor } = reader.balancesAt(customer, at);
      digest.update(`${customer}:${pointsMilli}:${creditMinor}\n`);
    }
    return digest.digest('hex');
  } finally {
    db.close();
  }
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}
