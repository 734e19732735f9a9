/** Server processes (hubs, stores, baselines) and in-process stores for the benchmarks, on temp folders. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../src/core/config.js';
import { demoCredentials } from '../../src/demo/demo.js';

export const BIN = fileURLToPath(new URL('../../bin/loyaltyd', import.meta.url));

const made: string[] = [];
// A full run writes several GB of databases; they go when the bench process ends.
process.once('exit', () => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A temp folder for a bench's data, in `parent` (the system's temp folder by default), removed when the bench process exits. */
export function benchDir(name: string, parent = tmpdir()): string {
  const folder = mkdtempSync(join(parent, `loyaltyd-bench-${name}-`));
  made.push(folder);
  return folder;
}

export function cli(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/** A hub's folder with the demo chain loaded (a folder records the kind of node it was made for). */
export function demoHubFolder(hubDir: string): void {
  cli(['demo', '--data-dir', hubDir, '--json'], { LOYALTYD_MODE: 'hub' });
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

export function startHub(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return spawnServer([BIN, 'serve', '--mode', 'hub', '--data-dir', dataDir, '--port', '0'], { LOYALTYD_LOG_LEVEL: 'warn', ...env });
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

export function addNode(hubDir: string, name: string): { node_name: string; node_secret: string } {
  return JSON.parse(cli(['nodes', 'add', '--name', name, '--data-dir', hubDir, '--json'])) as { node_name: string; node_secret: string };
}
