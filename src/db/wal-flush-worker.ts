/**
 * A WAL flusher's thread (src/db/durability.ts): on each message it syncs the database's
 * write-ahead log to the disk (`fdatasync`, as SQLite syncs it) and answers, until the owner
 * posts 'stop'. The log is opened again when its
 * file is not the one it holds open (SQLite deletes the log when its last connection closes).
 */
import { closeSync, existsSync, fstatSync, fdatasyncSync, openSync, statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

/** What the owner starts the worker with. */
export interface FlushWorkerData {
  /** The write-ahead log's path: the database file's with `-wal`. */
  wal: string;
}

/** The worker's answer to a flush: done, or the error the sync threw. */
export type FlushAnswer = { flushed: true } | { failed: string };

const { wal } = workerData as FlushWorkerData;
let fd: number | undefined;

function flush(): void {
  const current = existsSync(wal) ? statSync(wal).ino : undefined;
  if (fd !== undefined && fstatSync(fd).ino !== current) {
    closeSync(fd);
    fd = undefined;
  }
  // No log file: its last connection closed it, checkpointed into the database file and synced.
  if (current === undefined) return;
  fd ??= openSync(wal, 'r');
  fdatasyncSync(fd);
}

parentPort!.on('message', (message: 'flush' | 'stop') => {
  if (message === 'stop') {
    if (fd !== undefined) closeSync(fd);
    parentPort!.close();
    return;
  }
  try {
    flush();
    parentPort!.postMessage({ flushed: true } satisfies FlushAnswer);
  } catch (error) {
    parentPort!.postMessage({ failed: (error as Error).message } satisfies FlushAnswer);
  }
});
