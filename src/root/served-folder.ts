/** What the daemon does to its folder before it serves, on the thread that holds its read-write connection. */
import type { Config } from '../core/config.js';
import { recordMode } from '../db/node-mode.js';
import { isDemoLoaded, loadDemo } from '../demo/demo.js';
import { loadShowcase } from '../demo/showcase.js';
import type { App } from './app.js';

/** `serve --demo [--showcase]`. */
export interface DemoOptions {
  demo: boolean;
  showcase: boolean;
}

export async function prepareServedFolder(app: App, mode: Config['mode'], { demo, showcase }: DemoOptions): Promise<void> {
  // A folder an earlier release created records its mode at its first start.
  recordMode(app.node.db, mode);
  if (demo && !isDemoLoaded(app)) await loadDemo(app);
  if (showcase) loadShowcase(app);
}
