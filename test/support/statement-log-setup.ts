/**
 * Vitest's global setup: the run's statement log, a folder each test process writes the SQL it
 * prepares to (test/support/statement-log.ts), handed to the tests as
 * `inject('statementLogDir')` and removed when the run ends. Kept on `globalThis` and counted,
 * as the PostgreSQL cluster is (test/support/postgres-setup.ts), so every project of the run
 * shares one folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's statements are logged. */
    statementLogDir?: string;
  }
}

const SHARED = Symbol.for('loyaltyd.test.statement-log-dir');
const shared = globalThis as { [SHARED]?: { dir: string; users: number } };

export default function setup(project: TestProject): () => void {
  const run = (shared[SHARED] ??= { dir: mkdtempSync(join(tmpdir(), 'loyaltyd-statements-')), users: 0 });
  run.users += 1;
  project.provide('statementLogDir', run.dir);
  return () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared[SHARED];
    rmSync(run.dir, { recursive: true, force: true });
  };
}
