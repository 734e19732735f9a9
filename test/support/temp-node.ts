/** A node (a hub unless told) over a real SQLite file in a temp folder, closed and removed after the file's tests. */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { openNode, type Node } from '../../src/root/node.js';
import { tempDir } from './server.js';

/**
 * `'store with a hub'` is a store configured to sync with a hub (none listens at its URL): it
 * publishes no customer states of its own, and reads every fact it holds past the states it
 * has as its own (src/loyalty/balance-reader.ts).
 */
export function tempNode(prefix: string, kind: 'hub' | 'store' | 'store with a hub' = 'hub'): { node: Node; dataDir: string } {
  const dataDir = tempDir(prefix);
  const mode = kind === 'hub' ? 'hub' : 'store';
  const hub = kind === 'store with a hub' ? { 'hub.url': 'http://127.0.0.1:9' } : {};
  const node = openNode(loadConfig({ env: {}, overrides: { data_dir: dataDir, mode, ...hub } }), Date.now);
  afterAll(() => {
    node.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { node, dataDir };
}
