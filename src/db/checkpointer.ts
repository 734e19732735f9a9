/**
 * Write-ahead log checkpoints off the request path. SQLite's own checkpoint runs in the
 * commit that takes the log past 1,000 pages: that request copies the pages of the last few
 * dozen bills back into the database file and fsyncs it (test/bench/README.md, "Where the time went"). A
 * serving node checkpoints in a worker thread with a connection of its own instead. PASSIVE
 * checkpoints never wait for or block the writer, so commits go on while the worker copies.
 *
 * The worker checkpoints again at once as long as the last checkpoint copied anything: a
 * checkpoint copies the log as it stood when it began, and commits made meanwhile are left
 * for the next. It waits a moment when one copied nothing (nothing new, or a reader still
 * needs older pages). The log must be all copied when a writer starts for SQLite to
 * restart it from the beginning: that happens between the commits of a store's day (the
 * checkout bench's log stays in tens of megabytes), but not under a stream of commits with
 * no gap between them (an import, a sync bootstrap), where the worker copies and the log
 * still grows. So the writer keeps SQLite's checkpoint on commit, at ten times its usual log
 * length, as the bound.
 */
import type { Logger } from 'pino';
import { moduleWorker } from '../core/module-worker.js';
import type { CheckpointWorkerData } from './checkpoint-worker.js';
import type { SqliteDb } from './open.js';

/** How long the worker waits when the log had nothing left to copy. */
const IDLE_MS = 250;
/** The writer's own checkpoint while the worker runs: the bound of the log in a burst of commits. */
const BURST_PAGES = 10_000;
/** SQLite's default, restored when the worker stops. */
const AUTOCHECKPOINT_PAGES = 1000;
/** A worker asked to stop that has not exited after this long is ended. */
const STOP_GRACE_MS = 5000;

/** Starts checkpointing the database's log in a worker thread; returns its stop, done once the worker has exited. */
export function startCheckpointer(db: SqliteDb, log: Logger): () => Promise<void> {
  const worker = moduleWorker(import.meta.url, 'checkpoint-worker', { file: db.name, idleMs: IDLE_MS } satisfies CheckpointWorkerData);
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BURST_PAGES}`);
  let running = true;
  const giveBackToSqlite = () => {
    running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  worker.once('error', (error) => {
    log.error({ err: error }, 'checkpoint worker failed; SQLite checkpoints on commit again');
    giveBackToSqlite();
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (running) giveBackToSqlite();
      resolve();
    }),
  );
  // Done once the worker has closed its connection: nothing of it touches the files after.
  return () => {
    if (running) {
      giveBackToSqlite();
      worker.postMessage('stop');
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
    }
    return exited;
  };
}
