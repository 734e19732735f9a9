/**
 * The PostgreSQL side of `npm run bench hub-scale` (BENCH_HUB_ENGINE=postgres or both): a private
 * PostgreSQL 15 cluster the bench starts and stops itself, durable (fsync, synchronous commit and
 * full-page writes on), with a synchronous streaming standby on the same machine and disk, so
 * that a commit waits for the standby's flush as it does at a head office that loses no
 * acknowledged commit when it fails over; `pg_stat_statements` loaded, to count the statements
 * the hub sends. Each size's chain, written in bulk into a SQLite hub, is moved in with
 * `loyaltyd hub move-to-postgres` (timed as a CLI process), and the database's bytes are read
 * from PostgreSQL's catalogue.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { BIN, cliEnv } from '../support/cli.js';
import {
  createHubDatabase,
  startPostgresCluster,
  startSynchronousStandby,
  stopPostgresCluster,
  type PgCluster,
} from '../support/postgres-cluster.js';
import { shareOf } from './hub-scale-shares.js';
import type { StatementCounter } from './hub-scale-sync.js';

const SETTINGS = [
  'fsync = on',
  'synchronous_commit = on',
  'full_page_writes = on',
  'shared_buffers = 512MB',
  'max_wal_size = 8GB',
  "shared_preload_libraries = 'pg_stat_statements'",
];
const run$ = promisify(execFile);

export interface PostgresBench {
  primary: PgCluster;
  standby: PgCluster;
}

export async function startPostgresBench(): Promise<PostgresBench> {
  const primary = await startPostgresCluster(SETTINGS);
  try {
    const standby = await startSynchronousStandby(primary);
    await query(primary.url, 'CREATE EXTENSION pg_stat_statements');
    return { primary, standby };
  } catch (error) {
    stopPostgresCluster(primary);
    throw error;
  }
}

/** The standby first: the primary's commits wait for it while it runs. */
export function stopPostgresBench(bench: PostgresBench): void {
  stopPostgresCluster(bench.standby);
  stopPostgresCluster(bench.primary);
}

/** Moves the SQLite hub in `hubDir` into a new database `name`; the environment that serves it from there, and the move's time. */
export async function moveIn(bench: PostgresBench, hubDir: string, name: string): Promise<{ env: Record<string, string>; moveMs: number }> {
  const env = { LOYALTYD_DATABASE_URL: await createHubDatabase(bench.primary, name) };
  const started = performance.now();
  await run$(process.execPath, [BIN, 'hub', 'move-to-postgres', '--data-dir', hubDir, '--json'], {
    env: cliEnv({ LOYALTYD_MODE: 'hub', ...env }),
    maxBuffer: 16 * 1024 * 1024,
  });
  return { env, moveMs: performance.now() - started };
}

/** Drops the database `name`, ending any session still on it. */
export async function dropHubDatabase(bench: PostgresBench, name: string): Promise<void> {
  await query(bench.primary.url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** The database's bytes, and by what they hold as the SQLite file's are grouped (hub-scale-shares.ts): each table with its indexes and TOAST. */
export async function databaseBytes(url: string): Promise<{ bytes: number; shares: Record<string, number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const size = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    const tables = await client.query<{ name: string; bytes: string }>(
      "SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace",
    );
    const shares: Record<string, number> = {};
    for (const { name, bytes } of tables.rows) shares[shareOf(name)] = (shares[shareOf(name)] ?? 0) + Number(bytes);
    return { bytes: Number(size.rows[0]!.bytes), shares };
  } finally {
    await client.end();
  }
}

/**
 * Counts the statements sent to the database `name` from `reset()` on: every round trip, BEGIN
 * and COMMIT included; `most` lists the most sent, each with its count.
 */
export function statementCounter(
  bench: PostgresBench,
  name: string,
): StatementCounter & { most(n: number): Promise<{ calls: number; text: string }[]> } {
  const ofDatabase = 'dbid = (SELECT oid FROM pg_database WHERE datname = $1)';
  return {
    reset: async () => {
      await query(bench.primary.url, 'SELECT pg_stat_statements_reset()');
    },
    count: async () => {
      const [row] = await query<{ calls: string | null }>(
        bench.primary.url,
        `SELECT sum(calls) AS calls FROM pg_stat_statements WHERE ${ofDatabase}`,
        [name],
      );
      return Number(row?.calls ?? 0);
    },
    most: async (n) => {
      const rows = await query<{ calls: string; text: string }>(
        bench.primary.url,
        `SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') AS text FROM pg_stat_statements WHERE ${ofDatabase} ORDER BY calls DESC LIMIT $2`,
        [name, n],
      );
      return rows.map((row) => ({ calls: Number(row.calls), text: row.text }));
    },
  };
}

async function query<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
