/**
 * Where one hub machine stops: a hub holding a chain's history (hub-scale-chain.ts, written in
 * bulk into its file before it starts), measured at two sizes in one run — a tenth of the
 * period first, then the period — so that each figure's growth with the history is measured,
 * not assumed; each is printed beside the smaller size's. Per size: the file's size (and the
 * share of the feed and of each fact table), `loyaltyd backup` and `loyaltyd restore` (each a
 * CLI process, timed from its start to its exit), the hub's start, the reads of
 * hub-scale-reads.ts (p50 and p99 over HTTP), a store's bootstrap and a catch-up's apply rate
 * (hub-scale-sync.ts). Then the extrapolation to 5,000 stores and five years, and the month
 * each limit is passed, first first (hub-scale-extrapolation.ts).
 *
 * BENCH_HUB_STORES (500) stores selling BENCH_HUB_BILLS (1,000) bills a day each, for
 * BENCH_HUB_DAYS (1) day; BENCH_HUB_CUSTOMERS (2,000 a store) customers. A month of 500 stores
 * (BENCH_HUB_DAYS=30) is 15M bills: at the ~6,000 bills/s the writing reaches on the 2-core
 * development machine, 42 minutes to write, and some 40 GB of file (~2 KB a bill of facts,
 * ~3.3 KB a bill in the week's feed), three times that while a restore copies it beside the
 * backup and the file it puts aside — past this bench's 15 minutes and 15 GB. The default is
 * the period that fits both: a day, ~4 GB of file. BENCH_HUB_CATCHUP (5,000) bills make the
 * catch-up. Each size's folders go before the next is written, and all when the bench ends.
 *
 * BENCH_HUB_ENGINE (sqlite) says where the hub keeps the chain: `sqlite`, `postgres`, or `both`
 * in one run. On PostgreSQL (hub-scale-postgres.ts: a private durable cluster with a synchronous
 * standby) each size's chain is written into the SQLite file as ever, measured there when SQLite
 * is measured too, then moved in with `loyaltyd hub move-to-postgres`; the hub's start, the reads,
 * a store's bootstrap and catch-up are measured again on it, each beside SQLite's as PostgreSQL's
 * speed ÷ SQLite's, the catch-up beside the 5,000-store peak, with the statements the hub sent a
 * bill. Backup, restore and the extrapolation are SQLite's alone.
 */
import { execFile } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { databaseFile } from '../../src/root/node.js';
import { BIN, cliEnv } from '../support/cli.js';
import { addNode, benchDir, demoBearer, demoHubFolder, freePort, type StoreCredentials } from '../support/cluster.js';
import { billsOf, writeChain, type ChainScale } from './hub-scale-chain.js';
import { extrapolate, type SizeFigures } from './hub-scale-extrapolation.js';
import {
  databaseBytes,
  dropHubDatabase,
  moveIn,
  startPostgresBench,
  statementCounter,
  stopPostgresBench,
  type PostgresBench,
} from './hub-scale-postgres.js';
import { timeReads, type FeedToRead, type ReadName, type ReadTiming } from './hub-scale-reads.js';
import { shareOf } from './hub-scale-shares.js';
import { serveHub, storeRun, type StatementCounter } from './hub-scale-sync.js';
import { line, megabytes, rate, seconds } from './report.js';

const STORES = Number(process.env.BENCH_HUB_STORES ?? 500);
const BILLS = Number(process.env.BENCH_HUB_BILLS ?? 1_000);
const DAYS = Number(process.env.BENCH_HUB_DAYS ?? 1);
const CUSTOMERS = Number(process.env.BENCH_HUB_CUSTOMERS ?? STORES * 2_000);
const ENGINE = process.env.BENCH_HUB_ENGINE ?? 'sqlite';
const ON_SQLITE = ENGINE === 'sqlite' || ENGINE === 'both';
const ON_POSTGRES = ENGINE === 'postgres' || ENGINE === 'both';
/** The chain's writes at their peak at 5,000 stores: twice the mean of 12 trading hours (hub-scale-extrapolation.ts). */
const PEAK_AT_5000 = ((5_000 * BILLS) / (12 * 3600)) * 2;
/** The statements sent most in a PostgreSQL catch-up, each listed with its count a bill. */
const MOST_SENT = 12;
const run$ = promisify(execFile);

/** What one size measures on a hub moved to PostgreSQL. */
interface PostgresFigures {
  bills: number;
  moveMs: number;
  bytes: number;
  shares: Record<string, number>;
  hubStartMs: number;
  reads: Record<ReadName, ReadTiming>;
  bootstrapMs: number;
  catchUp: number;
  catchUpMs: number;
  statements: number;
  /** The statements sent most during the catch-up. */
  most: { calls: number; text: string }[];
}

export async function run(): Promise<void> {
  if (!ON_SQLITE && !ON_POSTGRES) throw new Error(`BENCH_HUB_ENGINE is sqlite, postgres or both, not ${ENGINE}`);
  const end = Date.now() - 3_600_000;
  const postgres = ON_POSTGRES ? await startPostgresBench() : undefined;
  try {
    const sizes: SizeFigures[] = [];
    const onPostgres: PostgresFigures[] = [];
    for (const days of [DAYS / 10, DAYS]) {
      const scale: ChainScale = { stores: STORES, billsPerDay: BILLS, days, customers: CUSTOMERS };
      const figures = await measure(scale, end, postgres, `hub_scale_${onPostgres.length}`);
      if (figures.sqlite) {
        sizes.push(figures.sqlite);
        printSize(figures.sqlite, sizes[0] === figures.sqlite ? undefined : sizes[0]);
      }
      if (figures.postgres) {
        onPostgres.push(figures.postgres);
        printPostgres(figures.postgres, figures.sqlite);
      }
    }
    if (sizes.length === 2) extrapolate(sizes[0]!, sizes[1]!);
  } finally {
    if (postgres) stopPostgresBench(postgres);
  }
}

/** One size: the chain written into a SQLite hub and measured there; then moved into PostgreSQL and measured again. */
async function measure(
  scale: ChainScale,
  end: number,
  postgres: PostgresBench | undefined,
  database: string,
): Promise<{ sqlite?: SizeFigures; postgres?: PostgresFigures }> {
  const hubDir = benchDir('hub-scale');
  try {
    demoHubFolder(hubDir);
    const stores = { sqlite: addNode(hubDir, 'hub-scale-store'), postgres: addNode(hubDir, 'hub-scale-store-on-postgres') };
    const reader = addNode(hubDir, 'hub-scale-feed-reader');
    const started = performance.now();
    const rows = writeChain(hubDir, scale, end);
    const writeMs = performance.now() - started;
    const feed: FeedToRead = { node: reader, changes: rows.changes ?? 0 };
    const sqlite = ON_SQLITE
      ? { scale, bills: billsOf(scale), rows, writeMs, ...(await onSqlite(hubDir, scale, end, stores.sqlite, feed)) }
      : undefined;
    if (!postgres) return { sqlite };
    try {
      return { sqlite, postgres: await onPostgres(postgres, database, hubDir, scale, end, stores.postgres, feed) };
    } finally {
      await dropHubDatabase(postgres, database);
    }
  } finally {
    rmSync(hubDir, { recursive: true, force: true });
  }
}

async function onSqlite(hubDir: string, scale: ChainScale, end: number, store: StoreCredentials, feed: FeedToRead) {
  const file = databaseFile(hubDir);
  const bytes = statSync(file).size;
  const shares = tableShares(file);
  const backup = join(benchDir('hub-scale-backup'), 'hub.sqlite');
  let started = performance.now();
  await loyaltyd(['backup', '--to', backup, '--data-dir', hubDir, '--json']);
  const backupMs = performance.now() - started;
  started = performance.now();
  const restored = JSON.parse(await loyaltyd(['restore', '--from', backup, '--data-dir', hubDir, '--json'])) as { moved_aside: string[] };
  const restoreMs = performance.now() - started;
  rmSync(backup, { force: true });
  for (const aside of restored.moved_aside) if (aside.includes('before-restore')) rmSync(aside, { force: true });
  const served = await serving(hubDir, scale, end, store, feed, {});
  return { bytes, shares, backupMs, restoreMs, ...served };
}

async function onPostgres(
  postgres: PostgresBench,
  database: string,
  hubDir: string,
  scale: ChainScale,
  end: number,
  store: StoreCredentials,
  feed: FeedToRead,
): Promise<PostgresFigures> {
  const { env, moveMs } = await moveIn(postgres, hubDir, database);
  const { bytes, shares } = await databaseBytes(env.LOYALTYD_DATABASE_URL!);
  const statements = statementCounter(postgres, database);
  const served = await serving(hubDir, scale, end, store, feed, env, statements);
  const most = await statements.most(MOST_SENT);
  return { bills: billsOf(scale), moveMs, bytes, shares, ...served, statements: served.statements ?? 0, most };
}

/** The hub served on its data: its start, the reads, a store's bootstrap and catch-up. */
async function serving(
  hubDir: string,
  scale: ChainScale,
  end: number,
  store: StoreCredentials,
  feed: FeedToRead,
  env: Record<string, string>,
  statements?: StatementCounter,
) {
  const port = await freePort();
  const running = await serveHub(hubDir, port, env);
  const hubStartMs = running.ms;
  try {
    const url = `http://127.0.0.1:${port}`;
    const reads = await timeReads(url, await demoBearer(url), scale, end, feed);
    const run = await storeRun(hubDir, port, running, store, scale, env, statements);
    return { hubStartMs, reads, ...run };
  } finally {
    await running.hub.stop();
  }
}

/** `loyaltyd ARGS` as its own process, no time limit; its standard output. */
async function loyaltyd(args: string[]): Promise<string> {
  const { stdout } = await run$(process.execPath, [BIN, ...args], { env: cliEnv({ LOYALTYD_MODE: 'hub' }), maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Bytes of the file by what they hold: the feed, each fact table with its indexes, the rest. */
function tableShares(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const tableOf = db.prepare<[string], string>('SELECT tbl_name FROM sqlite_master WHERE name = ?').pluck();
    const shares: Record<string, number> = {};
    for (const { name, bytes } of db
      .prepare<[], { name: string; bytes: number }>('SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE aggregate = 1 GROUP BY name')
      .all()) {
      const group = shareOf(tableOf.get(name) ?? name);
      shares[group] = (shares[group] ?? 0) + bytes;
    }
    return shares;
  } finally {
    db.close();
  }
}

function printSize(size: SizeFigures, smaller: SizeFigures | undefined): void {
  const beside = (figure: (one: SizeFigures) => string) => (smaller ? `  (at ${smaller.bills.toLocaleString('en')} bills: ${figure(smaller)})` : '');
  const at = `${size.bills.toLocaleString('en')} bills`;
  line(
    `${at}: hub written in bulk`,
    `${seconds(size.writeMs)} (${size.scale.stores} stores × ${size.scale.billsPerDay} bills × ${size.scale.days} days, ${size.scale.customers.toLocaleString('en')} customers)`,
  );
  line(
    `${at}: rows written`,
    Object.entries(size.rows)
      .map(([table, count]) => `${table} ${count.toLocaleString('en')}`)
      .join(', '),
  );
  line(`${at}: file size`, `${megabytes(size.bytes)}${beside((one) => megabytes(one.bytes))}`);
  for (const [group, bytes] of Object.entries(size.shares).sort((a, b) => b[1] - a[1]))
    line(`${at}: of it ${group}`, `${megabytes(bytes)}${beside((one) => megabytes(one.shares[group] ?? 0))}`);
  line(`${at}: loyaltyd backup`, `${seconds(size.backupMs)}${beside((one) => seconds(one.backupMs))}`);
  line(`${at}: loyaltyd restore`, `${seconds(size.restoreMs)}${beside((one) => seconds(one.restoreMs))}`);
  line(`${at}: hub start (serving line)`, `${seconds(size.hubStartMs)}${beside((one) => seconds(one.hubStartMs))}`);
  for (const name of Object.keys(size.reads) as ReadName[]) {
    const read = size.reads[name];
    line(
      `${at}: ${name}`,
      `p50 ${read.p50.toFixed(2)} ms  p99 ${read.p99.toFixed(2)} ms${read.totalItems === undefined ? '' : `  total_items ${read.totalItems}`}${beside((one) => `p50 ${one.reads[name].p50.toFixed(2)} p99 ${one.reads[name].p99.toFixed(2)} ms`)}`,
    );
  }
  line(
    `${at}: bootstrap of a store`,
    `${seconds(size.bootstrapMs)}  ${size.bootstrapRows.toLocaleString('en')} customer, card and state rows${beside((one) => seconds(one.bootstrapMs))}`,
  );
  line(
    `${at}: catch-up of ${size.catchUp.toLocaleString('en')} send-purchase`,
    `${seconds(size.catchUpMs)}  ${rate(size.catchUp, size.catchUpMs)}${beside((one) => rate(one.catchUp, one.catchUpMs))}`,
  );
}

/** A size's figures on PostgreSQL, each beside SQLite's at the same size when the run measured both: reads and the catch-up as PostgreSQL's speed ÷ SQLite's. */
function printPostgres(size: PostgresFigures, sqlite: SizeFigures | undefined): void {
  const at = `${size.bills.toLocaleString('en')} bills on PostgreSQL`;
  const speed = (sqliteMs: number, postgresMs: number) => (sqlite ? `  ${(sqliteMs / postgresMs).toFixed(2)}× SQLite's` : '');
  line(`${at}: loyaltyd hub move-to-postgres`, seconds(size.moveMs));
  line(`${at}: database size`, `${megabytes(size.bytes)}${sqlite ? `  (the SQLite file ${megabytes(sqlite.bytes)})` : ''}`);
  for (const [group, bytes] of Object.entries(size.shares).sort((a, b) => b[1] - a[1])) line(`${at}: of it ${group}`, megabytes(bytes));
  line(`${at}: hub start (serving line)`, `${seconds(size.hubStartMs)}${sqlite ? `  (SQLite ${seconds(sqlite.hubStartMs)})` : ''}`);
  for (const name of Object.keys(size.reads) as ReadName[]) {
    const read = size.reads[name];
    line(`${at}: ${name}`, `p50 ${read.p50.toFixed(2)} ms  p99 ${read.p99.toFixed(2)} ms${sqlite ? speed(sqlite.reads[name].p50, read.p50) : ''}`);
  }
  line(`${at}: bootstrap of a store`, `${seconds(size.bootstrapMs)}${sqlite ? speed(sqlite.bootstrapMs, size.bootstrapMs) : ''}`);
  line(
    `${at}: catch-up of ${size.catchUp.toLocaleString('en')} send-purchase`,
    `${seconds(size.catchUpMs)}  ${rate(size.catchUp, size.catchUpMs)}${sqlite ? speed(sqlite.catchUpMs / sqlite.catchUp, size.catchUpMs / size.catchUp) : ''}  (5,000-store peak ${PEAK_AT_5000.toFixed(0)} /s)`,
  );
  line(
    `${at}: statements the hub sent a bill`,
    `${(size.statements / size.catchUp).toFixed(1)}  (${size.statements.toLocaleString('en')} in the catch-up)`,
  );
  for (const { calls, text } of size.most) line(`${at}: of them, a bill`, `${(calls / size.catchUp).toFixed(2)}  ${text.slice(0, 110)}`);
}
