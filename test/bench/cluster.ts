/** Hub processes and in-process stores for the benchmarks, on temp folders. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../src/config.js';

export const BIN = fileURLToPath(new URL('../../bin/loyaltyd', import.meta.url));

export function benchDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `loyaltyd-bench-${name}-`));
}

export function cli(args: string[]): string {
  return execFileSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
}

export interface HubProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startHub(dataDir: string): Promise<HubProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--mode', 'hub', '--data-dir', dataDir, '--port', '0'], {
    env: { ...process.env, LOYALTYD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function storeConfig(dataDir: string, hubUrl: string, node: { node_name: string; node_secret: string }): Config {
  return loadConfig({
    env: {},
    overrides: { mode: 'store', data_dir: dataDir, 'hub.url': hubUrl, 'node.name': node.node_name, 'node.secret': node.node_secret, 'log.level': 'silent' },
  });
}

export function addNode(hubDir: string, name: string): { node_name: string; node_secret: string } {
  return JSON.parse(cli(['nodes', 'add', '--name', name, '--data-dir', hubDir, '--json'])) as { node_name: string; node_secret: string };
}
