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
 */
import { execFile } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { databaseFile } from '../../src/root/node.js';
import { BIN, cliEnv } from '../support/cli.js';
import { addNode, benchDir, demoBearer, demoHubFolder, freePort } from '../support/cluster.js';
import { billsOf, writeChain, type ChainScale } from './hub-scale-chain.js';
import { extrapolate, type SizeFigures } from './hub-scale-extrapolation.js';
import { timeReads, type ReadName } from './hub-scale-reads.js';
import { serveHub, storeRun } from './hub-scale-sync.js';
import { line, megabytes, rate, seconds } from './report.js';

const STORES = Number(process.env.BENCH_HUB_STORES ?? 500);
const BILLS = Number(process.env.BENCH_HUB_BILLS ?? 1_000);
const DAYS = Number(process.env.BENCH_HUB_DAYS ?? 1);
const CUSTOMERS = Number(process.env.BENCH_HUB_CUSTOMERS ?? STORES * 2_000);
const run$ = promisify(execFile);

export async function run(): Promise<void> {
  const end = Date.now() - 3_600_000;
  const sizes: SizeFigures[] = [];
  for (const days of [DAYS / 10, DAYS]) {
    const scale: ChainScale = { stores: STORES, billsPerDay: BILLS, days, customers: CUSTOMERS };
    const figures = await measure(scale, end);
    sizes.push(figures);
    printSize(figures, sizes[0] === figures ? undefined : sizes[0]);
  }
  extrapolate(sizes[0]!, sizes[1]!);
}

async function measure(scale: ChainScale, end: number): Promise<SizeFigures> {
  const hubDir = benchDir('hub-scale');
  try {
    demoHubFolder(hubDir);
    const credentials = addNode(hubDir, 'hub-scale-store');
    let started = performance.now();
    const rows = writeChain(hubDir, scale, end);
    const writeMs = performance.now() - started;
    const file = databaseFile(hubDir);
    const bytes = statSync(file).size;
    const shares = tableShares(file);
    const backup = join(benchDir('hub-scale-backup'), 'hub.sqlite');
    started = performance.now();
    await loyaltyd(['backup', '--to', backup, '--data-dir', hubDir, '--json']);
    const backupMs = performance.now() - started;
    started = performance.now();
    const restored = JSON.parse(await loyaltyd(['restore', '--from', backup, '--data-dir', hubDir, '--json'])) as { moved_aside: string[] };
    const restoreMs = performance.now() - started;
    rmSync(backup, { force: true });
    for (const aside of restored.moved_aside) if (aside.includes('before-restore')) rmSync(aside, { force: true });
    const port = await freePort();
    const running = await serveHub(hubDir, port);
    const hubStartMs = running.ms;
    try {
      const reads = await timeReads(`http://127.0.0.1:${port}`, await demoBearer(`http://127.0.0.1:${port}`), scale, end);
      const store = await storeRun(hubDir, port, running, credentials, scale);
      return { scale, bills: billsOf(scale), rows, writeMs, bytes, shares, backupMs, restoreMs, hubStartMs, reads, ...store };
    } finally {
      await running.hub.stop();
    }
  } finally {
    rmSync(hubDir, { recursive: true, force: true });
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
    const groups: Record<string, string> = {
      changes: 'feed (changes)',
      purchases: 'purchases',
      purchase_items: 'purchase items',
      point_records: 'point and credit records',
      credit_records: 'point and credit records',
      applied_commands: 'applied commands',
    };
    const tableOf = db.prepare<[string], string>('SELECT tbl_name FROM sqlite_master WHERE name = ?').pluck();
    const shares: Record<string, number> = {};
    for (const { name, bytes } of db
      .prepare<[], { name: string; bytes: number }>('SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE aggregate = 1 GROUP BY name')
      .all()) {
      const group = groups[tableOf.get(name) ?? name] ?? 'customers, states and the rest';
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
