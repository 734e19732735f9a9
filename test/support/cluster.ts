/**
 * Real loyaltyd processes for the sync acceptance tests: a hub holding the demo chain and
 * registered store nodes, and stores syncing with it — each one `node bin/loyaltyd serve`
 * on 127.0.0.1 over its own data folder, the hub on https with the test run's certificate
 * and the stores trusting the run's CA (test/support/test-pki.ts), talked to over HTTP and through the CLI
 * (`sync status|checksum --json`) as an operator would. Nodes stop gracefully, die by
 * SIGKILL, and come back on the same folder and the same port (stores look for their hub
 * at the URL they were given). `close()` kills every process the cluster started, and
 * the exit hook does so too should the test process end first.
 *
 * The benchmarks start their hubs, stores and baselines here too (`spawnServer`, `startHub`).
 *
 * Like test/support/cli.ts this runs dist/: `npm test` builds first; alone, run
 * `npx tsc -p tsconfig.json` before.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig, type Config } from '../../src/core/config.js';
import { DEMO_IDS, demoCredentials } from '../../src/demo/demo.js';
import { basePath, type Interface } from '../../src/http/interfaces.js';
import { checksumTables } from '../../src/sync/protocol/checksum.js';
import { readSyncStatus } from '../../src/sync/status.js';
import { BIN, cliEnv, runCli } from './cli.js';
import { sleep, waitFor } from './wait.js';
import { basic, bearer, call } from './server.js';
import { hubTlsEnv, testPki } from './test-pki.js';
import { dropHubDatabase, hubDatabaseEnv } from './hub-engine.js';
import { backUpHub, restoreHub } from './hub-backups.js';
import type { Db } from '../../src/db/open.js';
import { openPostgres } from '../../src/db/postgres/open-postgres.js';

export interface TableChecksum {
  rows: number;
  sha256: string;
}

/** What `loyaltyd sync status --json` prints for a store. */
export interface StoreStatus {
  mode: 'store';
  reachable: boolean | null;
  last_pull_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
  /** The HTTP status the hub refused the last round with; null when it succeeded or the hub did not answer. */
  last_error_status: number | null;
  outbox: { pending: number; oldest_pending_age_seconds: number | null; rejected: number; replaying: boolean };
  feed: { cursor: number | null; hub_last_seq: number | null; lag_rows: number | null; lag_seconds: number | null; bootstrapping: boolean };
  /** How far the store's stamps ran ahead of the hub's clock, past its tolerance, in the last push (0 when they did not). */
  clock_skew_ms: number;
  conflicts: number;
}

/**
 * Temp folders on tmpfs when the machine has one: the nodes open SQLite with
 * synchronous=FULL, and an fsync per API write on a disk would triple the suite's time
 * without testing anything a SIGKILL can show (a killed process loses no page cache).
 */
function tempRoot(): string {
  const parent = process.env.LOYALTYD_SYNC_TEST_TMP ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
  return mkdtempSync(join(parent, 'loyaltyd-sync-'));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface NodeOptions {
  name: string;
  mode: 'hub' | 'store';
  dataDir: string;
  port: number;
  env: Record<string, string>;
  logDir: string;
  /** https when the node's environment gives it a certificate. */
  scheme?: 'http' | 'https';
  /** Environment of the CLI commands run on its folder (LOYALTYD_*), e.g. the hub's CA for `sync now`. */
  commandEnv?: Record<string, string>;
  /** A hub's PostgreSQL database, where it keeps its data instead of the folder's SQLite file. */
  databaseUrl?: string;
}

/** One loyaltyd daemon: a data folder and a port that outlive the process serving them. */
export class NodeProcess {
  readonly name: string;
  readonly mode: 'hub' | 'store';
  readonly dataDir: string;
  readonly port: number;
  readonly scheme: 'http' | 'https';
  /** Extra `serve` flags (a store's hub URL and node credentials). */
  serveArgs: string[] = [];
  private readonly env: Record<string, string>;
  /** Environment of the CLI commands run on its folder (LOYALTYD_*), e.g. the hub's CA for `sync now`. */
  readonly commandEnv: Record<string, string>;
  private readonly logFile: string;
  private readonly databaseUrl: string | undefined;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private log: WriteStream | undefined;
  private starts = 0;

  constructor(options: NodeOptions) {
    this.name = options.name;
    this.mode = options.mode;
    this.dataDir = options.dataDir;
    this.port = options.port;
    this.scheme = options.scheme ?? 'http';
    this.env = options.env;
    this.commandEnv = options.commandEnv ?? {};
    this.logFile = join(options.logDir, `${options.name}.log`);
    this.databaseUrl = options.databaseUrl;
  }

  get url(): string {
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  api(iface: Interface): string {
    return `${this.url}${basePath(iface)}`;
  }

  /** Starts `loyaltyd serve` and resolves once it prints its "serving" line. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is already running`);
    this.starts += 1;
    this.log ??= createWriteStream(this.logFile, { flags: 'a' });
    this.log.write(`--- start ${this.starts} at ${new Date().toISOString()}\n`);
    const args = [
      BIN,
      'serve',
      '--mode',
      this.mode,
      '--data-dir',
      this.dataDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(this.port),
      ...this.serveArgs,
    ];
    const child = spawn(process.execPath, args, { env: cliEnv(this.env), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.log?.write(`--- exited code=${code} signal=${signal}\n`);
        if (this.child === child) this.child = undefined;
        resolve();
      }),
    );
    child.stderr!.on('data', (chunk: Buffer) => this.log?.write(chunk));
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        this.log?.write(chunk);
        if (seen.length < 4096) seen += chunk.toString();
        if (/loyaltyd \w+ serving https?:\/\/\S+/.test(seen)) {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code}) before serving:\n${this.logTail()}`));
      };
      const timer = setTimeout(() => {
        child.off('exit', onExit);
        reject(new Error(`${this.name} did not print its serving line within 20 s:\n${this.logTail()}`));
      }, 20_000);
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
  }

  /** SIGTERM, as systemd stops it; SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const stopped = await Promise.race([this.exited!.then(() => true), sleep(graceMs).then(() => false)]);
    if (!stopped) {
      this.log?.write(`--- did not stop within ${graceMs} ms of SIGTERM; killing\n`);
      await this.kill();
    }
  }

  /** SIGKILL: the process dies wherever it is, mid-transaction or mid-request. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Kills the process synchronously (the exit hook cannot wait). */
  killNow(): void {
    this.child?.kill('SIGKILL');
  }

  async closeLog(): Promise<void> {
    const log = this.log;
    this.log = undefined;
    if (log) await new Promise<void>((resolve) => log.end(resolve));
  }

  logTail(lines = 30): string {
    if (!existsSync(this.logFile)) return '(no log)';
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /** `loyaltyd <args> --data-dir <this node's folder> --json`, parsed; a non-zero exit throws. */
  async cli(args: string[]): Promise<any> {
    const env: Record<string, string> = { ...this.commandEnv, ...(this.mode === 'hub' ? { LOYALTYD_MODE: 'hub' } : {}) };
    const result = await runCli([...args, '--data-dir', this.dataDir, '--json'], env);
    if (result.code !== 0) throw new Error(`loyaltyd ${args.join(' ')} (${this.name}) exited ${result.code}: ${result.stderr}${result.stdout}`);
    return JSON.parse(result.stdout);
  }

  /** Backs this hub up as its operator does, on its engine (test/support/hub-backups.ts). */
  backUp(file: string): Promise<void> {
    return backUpHub(this.dataDir, file);
  }

  /** Puts the backup in `file` back in place of this hub's database; the hub must have stopped. */
  restoreFrom(file: string): Promise<void> {
    return restoreHub(this.dataDir, file);
  }

  async syncStatus(): Promise<StoreStatus> {
    return (await this.cli(['sync', 'status'])) as StoreStatus;
  }

  async checksum(): Promise<Record<string, TableChecksum>> {
    return ((await this.cli(['sync', 'checksum'])) as { tables: Record<string, TableChecksum> }).tables;
  }

  /** Runs `work` on the node's database: its SQLite file opened read-only, or its hub's PostgreSQL database (it may be running). */
  read<T>(work: (db: Db) => T): T {
    const db = this.databaseUrl ? openPostgres(this.databaseUrl, { serving: false }) : this.openFile();
    try {
      return work(db);
    } finally {
      db.close();
    }
  }

  private openFile(): Db {
    const db = new Database(join(this.dataDir, 'loyaltyd.sqlite'), { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  }

  count(sql: string, ...params: unknown[]): number {
    return this.read((db) => db.prepare<unknown[], { n: number }>(sql).get(...params)!.n);
  }

  /**
   * What `sync status` would print, read in this process from the node's file: the same
   * function the CLI runs, without a process start per poll. Tests confirm with the CLI.
   */
  peekStatus(): StoreStatus {
    return this.read((db) => readSyncStatus(db, 'store', undefined, Date.now)) as StoreStatus;
  }

  /** What `sync checksum` would print, read in this process. */
  peekChecksum(): Record<string, TableChecksum> {
    return this.read((db) => checksumTables(db));
  }

  /** A sync bookkeeping value from `meta` (`cursor`, `snapshot_after_id`, ...). */
  syncState(key: string): string | undefined {
    return this.read((db) => db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(`sync.${key}`)?.value);
  }
}

export interface StoreCredentials {
  node_name: string;
  node_secret: string;
}

export class StoreProcess extends NodeProcess {
  hubUrl: string;
  readonly credentials: StoreCredentials;

  constructor(options: NodeOptions & { hubUrl: string; credentials: StoreCredentials }) {
    super(options);
    this.hubUrl = options.hubUrl;
    this.credentials = options.credentials;
    this.serveArgs = this.syncArgs();
  }

  /** Points the store at another hub URL (a proxy, or the hub itself) from its next start. */
  useHubUrl(url: string): void {
    this.hubUrl = url;
    this.serveArgs = this.syncArgs();
  }

  /** `loyaltyd sync now --json`: one round from the CLI, beside the daemon's own agent. */
  async syncNow(): Promise<{ ok: boolean; bootstrapped: boolean; pushed: number; rejected: number; pulled: number; error?: string }> {
    return this.cli(['sync', 'now', ...this.syncArgs()]);
  }

  /** The flags that point a command at this store's hub as its node. */
  syncArgs(): string[] {
    return ['--hub-url', this.hubUrl, '--node-name', this.credentials.node_name, '--node-secret', this.credentials.node_secret];
  }
}

/** The demo chain's stores: a node serving both is sent the demo's POS users and may sell at either. */
export const DEMO_STORES = [DEMO_IDS.storeCentral, DEMO_IDS.storeAirport];

export interface ClusterOptions {
  /** Store node names, registered at the hub before it starts. */
  stores: string[];
  /** Stores started with the cluster (default: all). The others start empty when a test says so. */
  started?: string[];
  /** The hub URL a store syncs with (default: the hub's own), e.g. a faulty proxy's in front of `hub`. */
  hubUrlFor?: (store: string, hub: NodeProcess) => string | Promise<string>;
  /** Extra environment for every node (LOYALTYD_*). */
  env?: Record<string, string>;
  hubEnv?: Record<string, string>;
  /** The hub serves plain http when false. */
  tls?: boolean;
  /**
   * Per store, for that store alone: the stores its node serves (`nodes add --store`: the hub
   * rejects its facts naming another, and sends it their POS users; both demo stores unless
   * told), and extra environment for its daemon, e.g. libfaketime's
   * LD_PRELOAD and FAKETIME to run its clock ahead — an environment, not the `faketime`
   * wrapper, which forks and would keep the signals that stop and kill a node from reaching
   * it. The CLI commands run on the store's folder do not get it.
   */
  storeSetup?: Record<string, { serves?: string[]; env?: Record<string, string> }>;
}

export interface ConvergedState {
  statuses: Record<string, StoreStatus>;
  checksums: Record<string, TableChecksum>;
}

export class Cluster {
  readonly root: string;
  readonly hub: NodeProcess;
  readonly stores = new Map<string, StoreProcess>();
  private readonly exitHook = () => this.killAll();

  private constructor(root: string, hub: NodeProcess) {
    this.root = root;
    this.hub = hub;
    process.once('exit', this.exitHook);
  }

  /**
   * A hub with the demo chain and the named store nodes registered, and the stores (each on
   * an empty folder, so each bootstraps from the hub's snapshot). Sync runs every second.
   */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const root = tempRoot();
    const env = { LOYALTYD_SYNC_INTERVAL_SECONDS: '1', LOYALTYD_LOG_LEVEL: 'info', ...options.env };
    const tls = options.tls !== false;
    const hubDir = join(root, 'hub');
    const onDatabase = await hubDatabaseEnv(hubDir);
    const hub = new NodeProcess({
      name: 'hub',
      mode: 'hub',
      dataDir: hubDir,
      port: await freePort(),
      env: { ...env, ...(tls ? hubTlsEnv() : {}), ...onDatabase, ...options.hubEnv },
      commandEnv: onDatabase,
      databaseUrl: onDatabase.LOYALTYD_DATABASE_URL,
      logDir: root,
      scheme: tls ? 'https' : 'http',
    });
    const trustHub: Record<string, string> = tls ? { LOYALTYD_HUB_CA_FILE: testPki().caCert } : {};
    const cluster = new Cluster(root, hub);
    try {
      // The first start loads the demo chain; the nodes are registered beside the running hub.
      hub.serveArgs = ['--demo'];
      await hub.start();
      hub.serveArgs = [];
      const served = (name: string) => (options.storeSetup?.[name]?.serves ?? DEMO_STORES).flatMap((storeId) => ['--store', storeId]);
      const credentials = (await Promise.all(
        options.stores.map((name) => hub.cli(['nodes', 'add', '--name', name, ...served(name)])),
      )) as StoreCredentials[];
      const ports: number[] = [hub.port];
      while (ports.length <= options.stores.length) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      ports.shift();
      for (const [index, name] of options.stores.entries()) {
        const store = new StoreProcess({
          name,
          mode: 'store',
          dataDir: join(root, name),
          port: ports[index]!,
          env: { ...env, ...trustHub, ...options.storeSetup?.[name]?.env },
          commandEnv: trustHub,
          logDir: root,
          hubUrl: (await options.hubUrlFor?.(name, hub)) ?? hub.url,
          credentials: credentials[index]!,
        });
        cluster.stores.set(name, store);
      }
      const started = options.started ?? options.stores;
      await Promise.all(started.map((name) => cluster.store(name).start()));
      return cluster;
    } catch (error) {
      await cluster.close();
      throw error;
    }
  }

  store(name: string): StoreProcess {
    const store = this.stores.get(name);
    if (!store) throw new Error(`no store ${name} in this cluster`);
    return store;
  }

  get nodes(): NodeProcess[] {
    return [this.hub, ...this.stores.values()];
  }

  runningStores(): StoreProcess[] {
    return [...this.stores.values()].filter((store) => store.running);
  }

  /** Waits until a store has loaded the hub's snapshot and followed the feed once; its `sync status`. */
  async waitBootstrapped(store: StoreProcess, timeoutMs = 30_000): Promise<StoreStatus> {
    await waitFor(
      `${store.name} to bootstrap`,
      () => {
        const status = store.peekStatus();
        return status.feed.cursor !== null && !status.feed.bootstrapping && status.last_pull_at !== null;
      },
      { timeoutMs, intervalMs: 50 },
    );
    return store.syncStatus();
  }

  /**
   * Waits until every running store has pushed everything (outbox pending 0) and pulled
   * everything it knows of (feed lag 0), and every running node's replicated tables have
   * the same checksums as the hub's: the only state in which a further round changes
   * nothing. Polls in this process; with `viaCli`, then confirms with `sync status --json`
   * on every store and `sync checksum --json` on every node (a process each, which a
   * 2-core machine feels), and returns what those printed.
   */
  async waitConverged({ timeoutMs = 45_000, viaCli = false }: { timeoutMs?: number; viaCli?: boolean } = {}): Promise<ConvergedState> {
    const stores = this.runningStores();
    const drained = (status: StoreStatus) =>
      status.outbox.pending === 0 && !status.outbox.replaying && status.feed.lag_rows === 0 && !status.feed.bootstrapping;
    const differences = (hubSums: Record<string, TableChecksum>, storeSums: Record<string, TableChecksum>[]) =>
      stores.flatMap((store, index) =>
        Object.keys(hubSums)
          .filter((table) => JSON.stringify(storeSums[index]![table]) !== JSON.stringify(hubSums[table]))
          .map((table) => `${store.name}.${table}: ${JSON.stringify(storeSums[index]![table])} vs hub ${JSON.stringify(hubSums[table])}`),
      );
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      const statuses = stores.map((store) => store.peekStatus());
      if (statuses.every(drained)) {
        const hubSums = this.hub.peekChecksum();
        const differing = differences(
          hubSums,
          stores.map((store) => store.peekChecksum()),
        );
        if (differing.length === 0 && !viaCli)
          return { statuses: Object.fromEntries(stores.map((store, index) => [store.name, statuses[index]!])), checksums: hubSums };
        if (differing.length === 0) {
          const confirmed = Object.fromEntries(await Promise.all(stores.map(async (store) => [store.name, await store.syncStatus()] as const)));
          const [hubSums, ...storeSums] = await Promise.all([this.hub.checksum(), ...stores.map((store) => store.checksum())]);
          const confirmedDiffering = differences(hubSums!, storeSums);
          if (Object.values(confirmed).every(drained) && confirmedDiffering.length === 0) return { statuses: confirmed, checksums: hubSums! };
          last = { confirmed, confirmedDiffering };
        } else {
          last = { differing };
        }
      } else {
        last = Object.fromEntries(
          stores.map((store, index) => [
            store.name,
            { outbox: statuses[index]!.outbox, feed: statuses[index]!.feed, last_error: statuses[index]!.last_error },
          ]),
        );
      }
      if (Date.now() > deadline) {
        const logs = stores.map((store) => `--- ${store.name}\n${store.logTail(8)}`).join('\n');
        throw new Error(`nodes did not converge within ${timeoutMs} ms; last seen: ${JSON.stringify(last)}\n${logs}`);
      }
      await sleep(100);
    }
  }

  private killAll(): void {
    for (const node of this.nodes) node.killNow();
  }

  /** Kills every process (SIGKILL: nothing in them is under test any more) and removes the folders. */
  async close(): Promise<void> {
    process.off('exit', this.exitHook);
    await Promise.all(this.nodes.map((node) => node.kill()));
    await Promise.all(this.nodes.map((node) => node.closeLog()));
    if (process.env.LOYALTYD_KEEP_SYNC_TMP) return;
    rmSync(this.root, { recursive: true, force: true });
    await dropHubDatabase(this.hub.dataDir);
  }
}

/** Logs the demo POS user in at a node (a store knows the user once users replicated). */
export async function posLogin(node: NodeProcess): Promise<Record<string, string>> {
  const response = await call('POST', `${node.api('enterprise')}/users/actions/login`, {
    body: {
      user_external_application_id: demoCredentials.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    },
  });
  if (response.status !== 200) throw new Error(`POS login at ${node.name} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return bearer(response.body.data.bearer_token as string);
}

/** A hub and one store it has bootstrapped, with the demo POS user logged in at each. */
export async function hubAndStore(
  storeName: string,
): Promise<{ cluster: Cluster; store: StoreProcess; hubAuth: Record<string, string>; storeAuth: Record<string, string> }> {
  const cluster = await Cluster.start({ stores: [storeName] });
  const store = cluster.store(storeName);
  await cluster.waitBootstrapped(store);
  return { cluster, store, hubAuth: await posLogin(cluster.hub), storeAuth: await posLogin(store) };
}

/** A new customer-interface token at a node; its id and Basic header. */
export async function newToken(node: NodeProcess, deviceId = 'sync-test'): Promise<{ tokenId: string; headers: Record<string, string> }> {
  const response = await call('POST', `${node.api('customer')}/tokens`, {
    headers: basic(demoCredentials.api_user, ''),
    body: { device: { device_id: deviceId }, setup: { language_id: 'en' }, external_application_id: demoCredentials.external_application_id },
  });
  if (response.status !== 201) throw new Error(`POST /tokens at ${node.name} answered ${response.status}: ${JSON.stringify(response.body)}`);
  const tokenId = response.body.data.token_id as string;
  return { tokenId, headers: basic(demoCredentials.api_user, tokenId) };
}

/** A token with the demo customer (Jana) logged in: a customer session at that node. */
export async function customerSession(node: NodeProcess): Promise<{ tokenId: string; headers: Record<string, string> }> {
  const token = await newToken(node);
  const response = await call('POST', `${node.api('customer')}/tokens/${token.tokenId}/actions/login`, {
    headers: token.headers,
    body: { login_type: 'email', login_value: demoCredentials.customer_email, password: demoCredentials.customer_password },
  });
  if (response.status !== 200) throw new Error(`customer login at ${node.name} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return token;
}

/* The benchmarks' processes: hubs, stores and baselines known by the URL they print, in-process stores' config, temp folders. */

const made: string[] = [];

/** A temp folder for a bench's data, in `parent` (the system's temp folder by default), removed when the bench process exits. */
export function benchDir(name: string, parent = tmpdir()): string {
  // A full run writes several GB of databases; they go when the bench process ends.
  if (made.length === 0) {
    process.once('exit', () => {
      for (const folder of made) rmSync(folder, { recursive: true, force: true });
    });
  }
  const folder = mkdtempSync(join(parent, `loyaltyd-bench-${name}-`));
  made.push(folder);
  return folder;
}

function cliOutput(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/**
 * A hub's folder with the demo chain loaded (a folder records the kind of node it was made for);
 * `env` puts it on a PostgreSQL database (LOYALTYD_DATABASE_URL).
 */
export function demoHubFolder(hubDir: string, env: Record<string, string> = {}): void {
  cliOutput(['demo', '--data-dir', hubDir, '--json'], { LOYALTYD_MODE: 'hub', ...env });
}

/** A `loyaltyd serve` (or baseline server) process, known by the URL it prints. */
export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `node ARGS` and resolves once it prints `serving http://…`. BENCH_SERVER_NODE_FLAGS
 * adds flags to its node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, to profile a daemon under a bench's load).
 */
export function spawnServer(args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(seen);
      if (match) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ url: match[1]!, pid: child.pid!, stop: () => new Promise((done) => child.once('exit', () => done()).kill('SIGTERM')) });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/**
 * Backs up the hub serving `hubDir` on `port`, runs `meanwhile` (what the restore will lose), stops
 * the hub, restores its folder from the backup and starts it again on that port: the restored hub.
 */
export async function restoredHub(
  hub: ServerProcess,
  hubDir: string,
  port: number,
  meanwhile: () => Promise<void>,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const backups = mkdtempSync(join(tmpdir(), 'loyaltyd-backup-'));
  const backupFile = join(backups, 'hub.backup');
  try {
    await backUpHub(hubDir, backupFile);
    await meanwhile();
    await hub.stop();
    await restoreHub(hubDir, backupFile);
  } finally {
    rmSync(backups, { recursive: true, force: true });
  }
  return startHub(hubDir, env, port);
}

/** A hub daemon on `dataDir`, on any free port unless `port` is given (a hub started again where its stores find it). */
export function startHub(dataDir: string, env: Record<string, string> = {}, port = 0): Promise<ServerProcess> {
  return spawnServer([BIN, 'serve', '--mode', 'hub', '--data-dir', dataDir, '--port', String(port)], { LOYALTYD_LOG_LEVEL: 'warn', ...env });
}

/** A store daemon on `dataDir`, its writer thread and sync agent running, syncing with the hub at `hubUrl` as `node` every second. */
export function startStore(
  dataDir: string,
  hubUrl: string,
  node: { node_name: string; node_secret: string },
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const credentials = ['--hub-url', hubUrl, '--node-name', node.node_name, '--node-secret', node.node_secret];
  return spawnServer([BIN, 'serve', '--mode', 'store', '--data-dir', dataDir, '--port', '0', ...credentials], {
    LOYALTYD_LOG_LEVEL: 'warn',
    LOYALTYD_SYNC_INTERVAL_SECONDS: '1',
    ...env,
  });
}

/** The demo POS user's Bearer token from a node serving the demo data. */
export async function demoBearer(url: string): Promise<string> {
  const response = await fetch(`${url}/rest-api/enterprise-interface/v1.0/users/actions/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_external_application_id: demoCredentials.external_application_id,
      login: demoCredentials.pos_login,
      password: demoCredentials.pos_password,
    }),
  });
  if (response.status !== 200) throw new Error(`POS login at ${url} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { bearer_token: string } }).data.bearer_token;
}

export function storeConfig(dataDir: string, hubUrl: string, node: { node_name: string; node_secret: string }): Config {
  return loadConfig({
    env: {},
    overrides: {
      mode: 'store',
      data_dir: dataDir,
      'hub.url': hubUrl,
      'node.name': node.node_name,
      'node.secret': node.node_secret,
      'log.level': 'silent',
    },
  });
}

/** Registers a store node serving both demo stores, so it is sent the demo's POS users; `env` as for demoHubFolder. */
export function addNode(hubDir: string, name: string, env: Record<string, string> = {}): { node_name: string; node_secret: string } {
  const stores = DEMO_STORES.flatMap((storeId) => ['--store', storeId]);
  return JSON.parse(cliOutput(['nodes', 'add', '--name', name, ...stores, '--data-dir', hubDir, '--json'], env)) as {
    node_name: string;
    node_secret: string;
  };
}
