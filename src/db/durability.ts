/**
 * When a write is on disk (DESIGN §7: every answered write survives a power cut). A node opens
 * its database with `synchronous=FULL`, so a commit returns once its log frames are fsynced —
 * on the thread that commits, the event loop that answers every cash desk. A serving node
 * starts the WAL flushers instead: its connection commits with `synchronous=NORMAL` (the frames
 * are written to the log, not synced), and threads of its own sync the log. A call that
 * wrote is answered once a flush that began after its commit is done (`durable()`); the calls
 * that wrote while the flushes ran share the next one, as PostgreSQL's commits share a WAL flush.
 * Nothing waits for the disk on the event loop, and a second of a hundred bills is a few dozen
 * fsyncs, not a hundred.
 *
 * A read on the event loop may see a commit a few milliseconds before it is on disk; a power
 * cut in that moment loses the commit, whose caller was never answered and sends it again
 * (src/decisions/0079-wal-flusher.md).
 */
import type { Logger } from 'pino';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../core/module-worker.js';
import type { Db } from './open.js';
import type { FlushAnswer, FlushWorkerData } from './wal-flush-worker.js';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A flusher thread and the waiters its flush in progress answers. */
interface Flusher {
  worker: Worker;
  carrying: Waiter[] | undefined;
}

/**
 * Flusher threads: a commit that lands while one flushes starts the other at once instead of
 * waiting for the one running to end; a third waits for the first of them to end.
 */
const FLUSHERS = 2;
/** A worker asked to stop that has not exited after this long is ended. */
const STOP_GRACE_MS = 5000;

export class Durability {
  private readonly totalChanges: () => number;
  private flushers: Flusher[] = [];
  /** Waiting for a flusher: they committed after every flush running began. */
  private queued: Waiter[] = [];
  private log: Logger | undefined;
  private flushCount = 0;

  constructor(private readonly db: Db) {
    const statement = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.totalChanges = () => statement.get()!;
  }

  /** Rows this connection has changed since it opened: a call during which it moved wrote. */
  changes(): number {
    return this.totalChanges();
  }

  /** Flushes of the log done since the node opened: what /metrics shows beside the writes. */
  get flushes(): number {
    return this.flushCount;
  }

  /** Done once everything committed before the call is on disk: at once while commits sync themselves. */
  durable(): Promise<void> {
    if (this.flushers.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ resolve, reject });
      this.dispatch();
    });
  }

  /** Starts the flushers: commits stop waiting for the disk. Returns their stop, done once every waiter is answered. */
  startFlusher(log: Logger): () => Promise<void> {
    this.log = log;
    const flushers = Array.from({ length: FLUSHERS }, (): Flusher => {
      const flusher: Flusher = {
        worker: moduleWorker(import.meta.url, 'wal-flush-worker', { wal: `${this.db.name}-wal` } satisfies FlushWorkerData),
        carrying: undefined,
      };
      flusher.worker.unref();
      flusher.worker.on('message', (answer: FlushAnswer) => this.flushed(flusher, answer));
      flusher.worker.once('error', (error) => this.fail(error));
      return flusher;
    });
    const exited = Promise.all(flushers.map(({ worker }) => new Promise<void>((resolve) => worker.once('exit', () => resolve()))));
    this.flushers = flushers;
    this.db.pragma('synchronous = NORMAL');
    return async () => {
      if (this.flushers !== flushers) return void (await exited);
      // Commits sync themselves again before the last flush, which covers every one made before.
      this.db.pragma('synchronous = FULL');
      await this.durable();
      this.flushers = [];
      for (const { worker } of flushers) {
        worker.postMessage('stop');
        setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
      }
      await exited;
    };
  }

  /** Hands every queued waiter to an idle flusher, if one is. */
  private dispatch(): void {
    if (this.queued.length === 0) return;
    const idle = this.flushers.find((flusher) => flusher.carrying === undefined);
    if (!idle) return;
    idle.carrying = this.queued;
    this.queued = [];
    idle.worker.postMessage('flush');
  }

  private flushed(flusher: Flusher, answer: FlushAnswer): void {
    if ('failed' in answer) return this.fail(new Error(`the write-ahead log could not be synced: ${answer.failed}`));
    const done = flusher.carrying ?? [];
    flusher.carrying = undefined;
    this.flushCount += 1;
    this.dispatch();
    for (const waiter of done) waiter.resolve();
  }

  /**
   * A flush that failed leaves it unknown what of the log is on disk: every waiter fails (their
   * callers get a server error and send again), and commits sync themselves from now on.
   */
  private fail(error: Error): void {
    this.log?.error({ err: error }, 'the WAL flusher failed; commits sync themselves again');
    const flushers = this.flushers;
    this.flushers = [];
    if (this.db.open) this.db.pragma('synchronous = FULL');
    const waiting = [...flushers.flatMap((flusher) => flusher.carrying ?? []), ...this.queued];
    this.queued = [];
    for (const waiter of waiting) waiter.reject(error);
    for (const { worker } of flushers) void worker.terminate();
  }
}
