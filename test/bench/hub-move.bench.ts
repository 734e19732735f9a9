/**
 * `loyaltyd hub move-to-postgres` on a hub-scale chain (hub-scale-chain.ts, written in bulk into a
 * SQLite hub's file): the move into a private PostgreSQL 15 cluster the bench starts and stops
 * itself (durable: fsync and synchronous commit on), timed as a CLI process from its start to its
 * exit, with the whole-row checksums it compares before it commits; then `sync checksum --all` on
 * the moved hub, which must print what it printed on the file. Baseline: `loyaltyd backup` of the
 * same file, SQLite's online copy, in the same run.
 *
 * BENCH_HUB_STORES (500) stores selling BENCH_HUB_BILLS (1,000) bills a day each for
 * BENCH_MOVE_DAYS (1) day, BENCH_HUB_CUSTOMERS (2,000 a store) customers: one hub-scale day.
 */
import { execFile } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { databaseFile } from '../../src/root/node.js';
import { BIN, cliEnv } from '../support/cli.js';
import { addNode, benchDir, demoHubFolder } from '../support/cluster.js';
import { createHubDatabase, startPostgresCluster, stopPostgresCluster } from '../support/postgres-cluster.js';
import { billsOf, writeChain, type ChainScale } from './hub-scale-chain.js';
import { line, megabytes, rate, seconds } from './report.js';

const STORES = Number(process.env.BENCH_HUB_STORES ?? 500);
const BILLS = Number(process.env.BENCH_HUB_BILLS ?? 1_000);
const DAYS = Number(process.env.BENCH_MOVE_DAYS ?? 1);
const CUSTOMERS = Number(process.env.BENCH_HUB_CUSTOMERS ?? STORES * 2_000);
const DURABLE = ['fsync = on', 'synchronous_commit = on', 'full_page_writes = on', 'shared_buffers = 512MB', 'max_wal_size = 8GB'];
const run$ = promisify(execFile);

export async function run(): Promise<void> {
  const scale: ChainScale = { stores: STORES, billsPerDay: BILLS, days: DAYS, customers: CUSTOMERS };
  const hubDir = benchDir('hub-move');
  const cluster = await startPostgresCluster(DURABLE);
  try {
    demoHubFolder(hubDir);
    addNode(hubDir, 'hub-move-store');
    const rows = writeChain(hubDir, scale, Date.now() - 3_600_000);
    const bytes = statSync(databaseFile(hubDir)).size;
    line(
      'chain',
      `${billsOf(scale).toLocaleString('en')} bills, ${Object.values(rows)
        .reduce((sum, n) => sum + n, 0)
        .toLocaleString('en')} rows written, ${megabytes(bytes)} of file`,
    );

    let started = performance.now();
    await loyaltyd(['backup', '--to', join(benchDir('hub-move-backup'), 'hub.sqlite'), '--data-dir', hubDir]);
    const backupMs = performance.now() - started;
    const before = JSON.parse(await loyaltyd(['sync', 'checksum', '--all', '--data-dir', hubDir])) as { tables: Record<string, unknown> };

    const url = await createHubDatabase(cluster, 'loyaltyd');
    const onPostgres = { LOYALTYD_DATABASE_URL: url };
    started = performance.now();
    const moved = JSON.parse(await loyaltyd(['hub', 'move-to-postgres', '--data-dir', hubDir], onPostgres)) as { rows: number; checksums: string };
    const moveMs = performance.now() - started;
    started = performance.now();
    const after = JSON.parse(await loyaltyd(['sync', 'checksum', '--all', '--data-dir', hubDir], onPostgres)) as { tables: Record<string, unknown> };
    const checksumMs = performance.now() - started;

    line('backup of the file (baseline)', seconds(backupMs));
    line(
      'move to PostgreSQL',
      `${seconds(moveMs)} (${rate(moved.rows, moveMs)} rows, checksums ${moved.checksums}), ${(moveMs / backupMs).toFixed(1)}× the backup`,
    );
    line('sync checksum --all on PostgreSQL', seconds(checksumMs));
    const differing = Object.keys(before.tables).filter((table) => JSON.stringify(before.tables[table]) !== JSON.stringify(after.tables[table]));
    line('checksums, file and PostgreSQL', differing.length === 0 ? 'equal' : `DIFFER in ${differing.join(', ')}`);
  } finally {
    stopPostgresCluster(cluster);
    rmSync(hubDir, { recursive: true, force: true });
  }
}

/** `loyaltyd ARGS --json` on a hub's folder as its own process, no time limit; its standard output. */
async function loyaltyd(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run$(process.execPath, [BIN, ...args, '--json'], {
    env: cliEnv({ LOYALTYD_MODE: 'hub', ...env }),
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}
