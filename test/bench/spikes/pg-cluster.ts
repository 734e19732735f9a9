/**
 * A private PostgreSQL 15 cluster for the hub-on-PostgreSQL spike: `initdb` in a temp folder
 * owned by the unprivileged user `postgres` (initdb refuses root), served on a free port on
 * 127.0.0.1 with its socket in its own folder; a streaming standby made from it with
 * `pg_basebackup -R`. Every cluster started is stopped and its folder removed by `removeAll`,
 * which the spike runs in a `finally` and on SIGINT/SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/cluster.js';

const BIN = process.env.SPIKE_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const USER = 'postgres';

export interface PgCluster {
  dir: string;
  port: number;
}

const started: PgCluster[] = [];
const folders: string[] = [];

function asPostgres(tool: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [command, all] = asRoot ? ['runuser', ['-u', USER, '--', join(BIN, tool), ...args]] : [join(BIN, tool), args];
  return execFileSync(command, all, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function folderFor(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `loyaltyd-spike-${name}-`));
  folders.push(dir);
  const { uid, gid } = userIds();
  chownSync(dir, uid, gid);
  return dir;
}

function userIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function start(cluster: PgCluster, settings: string[]): void {
  const options = [`-p ${cluster.port}`, `-k ${cluster.dir}`, "-c listen_addresses='127.0.0.1'", ...settings.map((setting) => `-c ${setting}`)].join(
    ' ',
  );
  asPostgres('pg_ctl', ['-D', join(cluster.dir, 'data'), '-o', options, '-l', join(cluster.dir, 'server.log'), '-w', 'start']);
  started.push(cluster);
}

/** A new cluster, started, with `settings` (postgresql.conf names) on its command line. */
export async function primary(settings: string[] = []): Promise<PgCluster> {
  const dir = folderFor('primary');
  asPostgres('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', USER, '--no-sync']);
  const cluster = { dir, port: await freePort() };
  start(cluster, settings);
  return cluster;
}

/** A streaming standby of `source`, started: a base backup with `-R`, which writes its connection to the primary. */
export async function standby(source: PgCluster): Promise<PgCluster> {
  const dir = folderFor('standby');
  asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(source.port),
    '-U',
    USER,
    '-D',
    join(dir, 'data'),
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  const cluster = { dir, port: await freePort() };
  start(cluster, ['hot_standby=on']);
  return cluster;
}

/** Stops every cluster started (fast shutdown, then immediate) and removes their folders. */
export function removeAll(): void {
  for (const cluster of started.splice(0).reverse()) {
    try {
      asPostgres('pg_ctl', ['-D', join(cluster.dir, 'data'), '-m', 'fast', '-w', '-t', '20', 'stop']);
    } catch {
      try {
        asPostgres('pg_ctl', ['-D', join(cluster.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      } catch (error) {
        process.stderr.write(`could not stop the cluster in ${cluster.dir}: ${String(error)}\n`);
      }
    }
  }
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}
