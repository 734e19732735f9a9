/**
 * When a write is on disk (DESIGN §7: every answered write survives a power cut). A node opens
 * its database with `synchronous=FULL`, so a commit returns once its log frames are fsynced —
 * on the thread that commits, the event loop that answers every cash desk. A serving node
 * starts the WAL flusher instead: its connection commits with `synchronous=NORMAL` (the frames
 * are written to the log, not synced), and a thread of its own fsyncs the log. A call that
 * wrote is answered once a flush that began after its commit is done (`durable()`); the calls
 * that wrote while a flush ran share the next one, as PostgreSQL's commits share a WAL flush.
 * Nothing waits for the disk on the event loop, and a second of a hundred bills is a few dozen
 * fsyncs, not a hundred.
 *
 * A read on the event loop may see a commit a few milliseconds before it is on disk; a power
 * cut in that moment loses the commit, whose caller was never answered and sends it again
 * (src/decisions/0087-wal-flusher.md).
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

/** A worker asked to stop that has not exited after this long is ended. */
const STOP_GRACE_MS = 5000;

export class Durability {
  private readonly totalChanges: () => number;
  private flusher: Worker | undefined;
  /** Waiting for the flush that runs now. */
  private flushing: Waiter[] | undefined;
  /** Waiting for the next flush: they committed after the one that runs now began. */
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
    if (!this.flusher) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ resolve, reject });
      if (!this.flushing) this.flushNext();
    });
  }

  /** Starts the flusher: commits stop waiting for the disk. Returns its stop, done once every waiter is answered. */
  startFlusher(log: Logger): () => Promise<void> {
    this.log = log;
    const worker = moduleWorker(import.meta.url, 'wal-flush-worker', { wal: `${this.db.name}-wal` } satisfies FlushWorkerData);
    worker.unref();
    worker.on('message', (answer: FlushAnswer) => this.flushed(answer));
    worker.once('error', (error) => this.fail(error));
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.flusher = worker;
    this.db.pragma('synchronous = NORMAL');
    return async () => {
      if (this.flusher !== worker) return exited;
      // Commits sync themselves again before the last flush, which covers every one made before.
      this.db.pragma('synchronous = FULL');
      await this.durable();
      this.flusher = undefined;
      worker.postMessage('stop');
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
      return exited;
    };
  }

  private flushNext(): void {
    this.flushing = this.queued;
    this.queued = [];
    this.flusher!.postMessage('flush');
  }

  private flushed(answer: FlushAnswer): void {
    if ('failed' in answer) return this.fail(new Error(`the write-ahead log could not be synced: ${answer.failed}`));
    const done = this.flushing ?? [];
    this.flushing = undefined;
    this.flushCount += 1;
    if (this.queued.length > 0) this.flushNext();
    for (const waiter of done) waiter.resolve();
  }

  /**
   * A flush that failed leaves it unknown what of the log is on disk: its waiters fail (their
   * callers get a server error and send again), and commits sync themselves from now on.
   */
  private fail(error: Error): void {
    this.log?.error({ err: error }, 'the WAL flusher failed; commits sync themselves again');
    const worker = this.flusher;
    this.flusher = undefined;
    if (this.db.open) this.db.pragma('synchronous = FULL');
    const waiting = [...(this.flushing ?? []), ...this.queued];
    this.flushing = undefined;
    this.queued = [];
    for (const waiter of waiting) waiter.reject(error);
    if (worker) void worker.terminate();
  }
}
