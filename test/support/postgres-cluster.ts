/**
 * A private PostgreSQL 15 cluster for tests and benchmarks of a hub on PostgreSQL: `initdb` in
 * a fresh temp folder, served on a free port on 127.0.0.1 with its unix socket in that folder.
 * initdb and the server refuse to run as root, so a root process runs them as the user
 * `postgres` (`runuser`) and any other process as itself. Durability is off (fsync,
 * synchronous_commit, full_page_writes): a test cluster never outlives its run, and a crash
 * loses nothing a test needs.
 *
 * A synchronous streaming standby of a cluster (`startSynchronousStandby`) is a base backup of it
 * served beside it, the primary's commits waiting for its flush.
 *
 * The binaries come from Debian's postgresql-15 (`LOYALTYD_PG_BIN` names another folder).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cluster.js';
import { waitFor } from './wait.js';

const BIN = process.env.LOYALTYD_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const TOOLS = ['initdb', 'pg_ctl', 'postgres'];
/** The OS user a root process runs PostgreSQL as; also the cluster's superuser, whoever runs it. */
const USER = 'postgres';

const TEST_SETTINGS = ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off', 'max_connections = 200'];

/** A PostgreSQL client program (pg_dump, pg_restore) of the binaries the cluster runs. */
export function postgresTool(tool: string): string {
  return join(BIN, tool);
}

export interface PgCluster {
  /** The cluster's folder: `data/`, `server.log` and the unix socket. */
  dir: string;
  port: number;
  /** The superuser's connection to the `postgres` database; trust authentication, no password. */
  url: string;
}

const asRoot = (): boolean => process.getuid?.() === 0;
const onPath = (command: string): boolean => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));

/** Why this machine cannot start a cluster, or undefined when it can. */
export function postgresAvailable(): string | undefined {
  const absent = TOOLS.filter((tool) => !existsSync(join(BIN, tool)));
  if (absent.length > 0) return `PostgreSQL's ${absent.join(', ')} not found in ${BIN} (apt-get install postgresql, or set LOYALTYD_PG_BIN)`;
  if (asRoot()) {
    if (userIds() === undefined) return `running as root, PostgreSQL needs the unprivileged user ${USER}, which this machine lacks`;
    if (!onPath('runuser')) return `running as root, PostgreSQL is started with runuser, which this machine lacks`;
  }
  return undefined;
}

/**
 * A new cluster, started. `settings` are postgresql.conf lines (`shared_buffers = 256MB`),
 * applied after the test settings, so they may override them.
 */
export async function startPostgresCluster(settings: string[] = []): Promise<PgCluster> {
  const unavailable = postgresAvailable();
  if (unavailable !== undefined) throw new Error(unavailable);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'loyaltyd-postgres-'));
  const cluster: PgCluster = { dir, port, url: `postgres://${USER}@127.0.0.1:${port}/postgres` };
  try {
    const owner = asRoot() ? userIds() : undefined;
    if (owner) chownSync(dir, owner.uid, owner.gid);
    runTool(dir, 'initdb', ['-D', dataDir(cluster), '--locale=C', '--encoding=UTF8', '-A', 'trust', '-U', USER, '--no-sync']);
    const served = ["listen_addresses = '127.0.0.1'", `port = ${port}`, `unix_socket_directories = '${dir}'`];
    appendFileSync(join(dataDir(cluster), 'postgresql.conf'), [...served, ...TEST_SETTINGS, ...settings, ''].join('\n'));
    runTool(dir, 'pg_ctl', ['-D', dataDir(cluster), '-l', logFile(cluster), '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = existsSync(logFile(cluster)) ? `\n${readFileSync(logFile(cluster), 'utf8').slice(-2000)}` : '';
    stopPostgresCluster(cluster);
    throw new Error(`could not start PostgreSQL in ${dir}: ${describe(error)}${log}`, { cause: error });
  }
  return cluster;
}

/**
 * A streaming standby of `primary`, started, and the primary made to wait for its flush at each
 * commit (`synchronous_standby_names`); returns once the primary reports it synchronous. Stop it
 * with `stopPostgresCluster` before the primary, whose commits otherwise wait for it.
 */
export async function startSynchronousStandby(primary: PgCluster): Promise<PgCluster> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'loyaltyd-postgres-standby-'));
  const standby: PgCluster = { dir, port, url: `postgres://${USER}@127.0.0.1:${port}/postgres` };
  try {
    const owner = asRoot() ? userIds() : undefined;
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const source = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', USER];
    runTool(dir, 'pg_basebackup', [...source, '-D', dataDir(standby), '-R', '-X', 'stream', '-c', 'fast']);
    const served = ["listen_addresses = '127.0.0.1'", `port = ${port}`, `unix_socket_directories = '${dir}'`, 'hot_standby = on'];
    appendFileSync(join(dataDir(standby), 'postgresql.conf'), [...served, ''].join('\n'));
    runTool(dir, 'pg_ctl', ['-D', dataDir(standby), '-l', logFile(standby), '-w', '-t', '60', 'start']);
  } catch (error) {
    stopPostgresCluster(standby);
    throw new Error(`could not start a standby of the cluster in ${primary.dir}: ${describe(error)}`, { cause: error });
  }
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  try {
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = '*'");
    await admin.query('SELECT pg_reload_conf()');
    await waitFor(`the standby on port ${port} to become synchronous`, async () => {
      const { rows } = await admin.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
      return rows[0]?.sync_state === 'sync';
    });
    return standby;
  } finally {
    await admin.end();
  }
}

/** A new database `name` in the cluster, made as a hub's is (the C collation, so text sorts by bytes as on SQLite); its URL. */
export async function createHubDatabase(cluster: PgCluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Stops the cluster (fast shutdown, which ends open sessions; immediate when that fails) and
 * removes its folder. Synchronous, so an exit hook can run it; harmless on a cluster that never
 * started or was stopped already.
 */
export function stopPostgresCluster(cluster: PgCluster): void {
  if (existsSync(join(dataDir(cluster), 'postmaster.pid'))) {
    try {
      runTool(cluster.dir, 'pg_ctl', ['-D', dataDir(cluster), '-m', 'fast', '-w', '-t', '20', 'stop']);
    } catch {
      try {
        runTool(cluster.dir, 'pg_ctl', ['-D', dataDir(cluster), '-m', 'immediate', '-w', '-t', '20', 'stop']);
      } catch (error) {
        process.stderr.write(`could not stop the PostgreSQL cluster in ${cluster.dir}: ${describe(error)}\n`);
      }
    }
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}

const dataDir = (cluster: PgCluster): string => join(cluster.dir, 'data');
const logFile = (cluster: PgCluster): string => join(cluster.dir, 'server.log');

/** Runs a PostgreSQL tool from `dir` (root's home may be closed to the user `postgres`), as that user when root. */
function runTool(dir: string, tool: string, args: string[]): string {
  const [command, all] = asRoot() ? ['runuser', ['-u', USER, '--', join(BIN, tool), ...args]] : [join(BIN, tool), args];
  return execFileSync(command, all, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function userIds(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** A failed tool's own words (its stderr) rather than Node's "Command failed". */
function describe(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  if (typeof stderr === 'string' && stderr.trim() !== '') return stderr.trim();
  return error instanceof Error ? error.message : String(error);
}
