/**
 * Vitest's global setup: the run's one PostgreSQL cluster (test/support/postgres-cluster.ts),
 * its URL handed to the tests as `inject('postgresUrl')`; a test takes a database of its own
 * from it with `freshPostgresDatabase()` (test/support/postgres.ts).
 *
 * Vitest runs a global setup once for the root project and once for each project that
 * inherits it, in the one main process; the cluster is kept on `globalThis` and counted, so
 * they all share it and the last teardown stops it. The exit and signal hooks stop it too
 * should vitest end without tearing down.
 *
 * On a machine without PostgreSQL the run goes on without a cluster: only the tests that ask
 * for a database fail, saying why.
 */
import type { TestProject } from 'vitest/node';
import { postgresAvailable, startPostgresCluster, stopPostgresCluster, type PgCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster; absent when the machine cannot run PostgreSQL. */
    postgresUrl?: string;
  }
}

interface RunCluster {
  cluster: Promise<PgCluster & { stop(): void }>;
  /** The global setups (one per project) sharing it that have not torn down yet. */
  users: number;
}

const SHARED = Symbol.for('loyaltyd.test.postgres-cluster');
const shared = globalThis as { [SHARED]?: RunCluster };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (postgresAvailable() !== undefined) return async () => {};
  const run = (shared[SHARED] ??= { cluster: startRunCluster(), users: 0 });
  run.users += 1;
  project.provide('postgresUrl', (await run.cluster).url);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared[SHARED];
    (await run.cluster).stop();
  };
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Starts the cluster with hooks that stop it when the process exits or is signalled. A signal
 * hook hands the signal on: to vitest's own handler when there is one, which exits; else to
 * Node's default, which ends the process as the signal would have.
 */
async function startRunCluster(): Promise<PgCluster & { stop(): void }> {
  const cluster = await startPostgresCluster();
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const stop = () => {
    process.off('exit', stop);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    stopPostgresCluster(cluster);
  };
  process.once('exit', stop);
  for (const signal of SIGNALS) process.once(signal, onSignal);
  return { ...cluster, stop };
}
