/**
 * Spike, not shipped and not run by `npm test` or `npm run bench`: the hub's apply of
 * send-purchase operations and its feed read, on SQLite as the hub runs it today and on
 * PostgreSQL 15, in one run, for the plan in src/decisions/0086-hub-on-postgresql.md.
 *
 *   node --import tsx test/bench/spikes/hub-apply-postgres.ts
 *
 * Each engine applies SPIKE_OPERATIONS (5,000) operations one commit each (a write the hub
 * serves itself, or a push of one command) and then SPIKE_OPERATIONS × 4 in commits of
 * SPIKE_BATCH (100) (a store's push), each operation the statements of apply-workload.ts
 * (15–17 a bill); then reads its feed from the start a page of 1,000 at a time. Printed: operations/s,
 * the p50 and p99 of a commit (all its operations' statements and the commit), and the
 * feed's rows/s and the p99 of a page.
 *
 * - SQLite: better-sqlite3 on a file in a temp folder, WAL, synchronous=FULL, as src/db/open.ts opens it.
 * - PostgreSQL alone: a private cluster (pg-cluster.ts: initdb as the user `postgres`, a free
 *   port on 127.0.0.1), fsync on, `synchronous_commit = on`; the `pg` driver, one connection,
 *   a round trip a statement. Twice: a statement a row, as the repositories write today (what a
 *   synchronous facade over the driver would send), and a statement a table, each commit's rows
 *   of one table gathered into one INSERT (apply-workload.ts `grouped`).
 * - PostgreSQL with a streaming standby attached (`pg_basebackup -R`) and
 *   `synchronous_standby_names = '*'`: `synchronous_commit = on` (a commit waits for the
 *   standby's flush), both ways, and `off` (waits for no flush), a statement a table. Both clusters on this one machine and
 *   disk, so the standby's flush competes with the primary's: labelled as such.
 *
 * The clusters are stopped and their folders removed at the end, also on failure or Ctrl-C.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FEED_PAGE, grouped, numbered, operation, schema, type Statement } from './apply-workload.js';
import { primary, removeAll, standby, type PgCluster } from './pg-cluster.js';

const OPERATIONS = Number(process.env.SPIKE_OPERATIONS ?? 5_000);
const BATCH = Number(process.env.SPIKE_BATCH ?? 100);
const PAGE = 1_000;
const ONE_BY_ONE = 'a statement a row';
const GATHERED = 'a statement a table';

interface Engine {
  name: string;
  /** Runs the statements in one transaction, committed. */
  commit(statements: Statement[]): Promise<void>;
  page(after: number): Promise<{ seq: number }[]>;
  close(): Promise<void>;
}

function sqlite(file: string): Engine {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const sql of schema('INTEGER PRIMARY KEY AUTOINCREMENT')) db.exec(sql);
  const prepared = new Map<string, Database.Statement>();
  const statement = (sql: string) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql)!;
  const transaction = db.transaction((statements: Statement[]) => {
    for (const { sql, params } of statements) statement(sql).run(...params);
  });
  const feed = db.prepare<[number, number], { seq: number }>(FEED_PAGE);
  return {
    name: 'SQLite (WAL, synchronous=FULL)',
    commit: (statements) => Promise.resolve(transaction(statements)),
    page: (after) => Promise.resolve(feed.all(after, PAGE)),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

async function postgres(cluster: PgCluster, name: string, synchronousCommit: 'on' | 'off', gather: boolean): Promise<Engine> {
  const client = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: 'postgres', database: 'postgres' });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  for (const sql of schema('BIGSERIAL PRIMARY KEY')) await client.query(sql);
  await client.query(`SET synchronous_commit = ${synchronousCommit}`);
  // A prepared statement's name is cut at 63 bytes: each SQL text gets a short one.
  const names = new Map<string, string>();
  const nameOf = (sql: string) => names.get(sql) ?? names.set(sql, `s${names.size}`).get(sql)!;
  return {
    name,
    async commit(statements) {
      await client.query('BEGIN');
      try {
        for (const { sql, params } of gather ? grouped(statements) : statements)
          await client.query({ name: nameOf(sql), text: numbered(sql), values: params });
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    page: async (after) =>
      (await client.query({ name: 'feed', text: numbered(FEED_PAGE), values: [after, PAGE] })).rows.map((row) => ({ seq: Number(row.seq) })),
    close: () => client.end(),
  };
}

interface Figures {
  single: Timing;
  batched: Timing;
  feed: Timing;
}

interface Timing {
  units: number;
  ms: number;
  p50: number;
  p99: number;
}

/** Every commit's time, in order of size. */
function timing(units: number, ms: number, each: number[]): Timing {
  each.sort((a, b) => a - b);
  return { units, ms, p50: each[Math.floor(each.length / 2)]!, p99: each[Math.floor(each.length * 0.99)]! };
}

async function measure(engine: Engine, run: string): Promise<Figures> {
  const commits = async (count: number, batch: number, from: number): Promise<Timing> => {
    const each: number[] = [];
    const started = performance.now();
    for (let n = from; n < from + count; n += batch) {
      const statements = Array.from({ length: Math.min(batch, from + count - n) }, (_, k) => operation(n + k, run)).flat();
      const at = performance.now();
      await engine.commit(statements);
      each.push(performance.now() - at);
    }
    return timing(count, performance.now() - started, each);
  };
  const single = await commits(OPERATIONS, 1, 0);
  const batched = await commits(OPERATIONS * 4, BATCH, OPERATIONS);
  const pages: number[] = [];
  let rows = 0;
  const started = performance.now();
  for (let after = 0; ;) {
    const at = performance.now();
    const page = await engine.page(after);
    pages.push(performance.now() - at);
    if (page.length === 0) break;
    rows += page.length;
    after = page.at(-1)!.seq;
  }
  return { single, batched, feed: timing(rows, performance.now() - started, pages) };
}

function print(name: string, figures: Figures): void {
  const rate = (t: Timing) => `${Math.round((t.units * 1000) / t.ms).toLocaleString('en')}`;
  process.stdout.write(
    `| ${name} | ${rate(figures.single)} /s, p50 ${figures.single.p50.toFixed(2)} ms, p99 ${figures.single.p99.toFixed(2)} ms ` +
      `| ${rate(figures.batched)} /s, p50 ${figures.batched.p50.toFixed(1)} ms, p99 ${figures.batched.p99.toFixed(1)} ms ` +
      `| ${rate(figures.feed)} rows/s, p99 ${figures.feed.p99.toFixed(2)} ms a page |\n`,
  );
}

async function main(): Promise<void> {
  process.stdout.write(
    `${OPERATIONS.toLocaleString('en')} operations a commit each, then ${(OPERATIONS * 4).toLocaleString('en')} in commits of ${BATCH}; the feed in pages of ${PAGE}\n`,
  );
  process.stdout.write(`| engine | one operation a commit | ${BATCH} operations a commit (p50/p99 of a commit) | feed read |\n|---|---|---|---|\n`);
  const folder = mkdtempSync(join(tmpdir(), 'loyaltyd-spike-sqlite-'));
  try {
    const lite = sqlite(join(folder, 'hub.sqlite'));
    print(lite.name, await measure(lite, 'sqlite'));
    await lite.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const source = await primary();
  for (const gather of [false, true]) {
    const alone = await postgres(source, `PostgreSQL 15 alone, synchronous_commit=on, ${gather ? GATHERED : ONE_BY_ONE}`, 'on', gather);
    print(alone.name, await measure(alone, 'alone'));
    await alone.close();
  }
  const replica = await standby(source);
  const admin = new pg.Client({ host: '127.0.0.1', port: source.port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
  await admin.query('SELECT pg_reload_conf()');
  for (let tries = 0; ; tries += 1) {
    const state = (await admin.query('SELECT sync_state FROM pg_stat_replication')).rows[0] as { sync_state: string } | undefined;
    if (state?.sync_state === 'sync') break;
    if (tries > 100) throw new Error(`the standby on port ${replica.port} did not become synchronous: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await admin.end();
  for (const [setting, gather] of [
    ['on', false],
    ['on', true],
    ['off', true],
  ] as const) {
    const name = `PostgreSQL 15 + streaming standby (same machine), synchronous_commit=${setting}, ${gather ? GATHERED : ONE_BY_ONE}`;
    const engine = await postgres(source, name, setting, gather);
    print(engine.name, await measure(engine, `standby-${setting}-${gather}`));
    await engine.close();
  }
}

process.once('SIGINT', () => {
  removeAll();
  process.exit(130);
});
process.once('SIGTERM', () => {
  removeAll();
  process.exit(143);
});
try {
  await main();
} finally {
  removeAll();
}
