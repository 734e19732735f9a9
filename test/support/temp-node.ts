/** A node (a hub unless told) over a real SQLite file in a temp folder, closed and removed after the file's tests. */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { openNode, type Node } from '../../src/root/node.js';
import { tempDir } from './server.js';

export function tempNode(prefix: string, mode: 'hub' | 'store' = 'hub'): { node: Node; dataDir: string } {
  const dataDir = tempDir(prefix);
  const node = openNode({ data_dir: dataDir, mode }, Date.now);
  afterAll(() => {
    node.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { node, dataDir };
}
