/**
 * Syncs a database's write-ahead log (`fdatasync`, as SQLite syncs it) on libuv's thread pool
 * for the commits its connection made without syncing (`synchronous=NORMAL`): a waiter is done
 * once a flush that began after it asked is done, and the waiters that asked while the flushes
 * ran share the next one, as PostgreSQL's commits share a WAL flush (src/db/durability.ts). The
 * flush's end is seen by the thread that asked, whichever thread committed.
 */
import { closeSync, fdatasync, fstatSync, openSync, statSync } from 'node:fs';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * A flusher: the log's file as it holds it open, the waiters its flush in progress answers, and
 * that flush. The log is opened again when its file is not the one held open (SQLite deletes
 * the log when its last connection closes).
 */
interface Flusher {
  fd: number | undefined;
  carrying: Waiter[] | undefined;
  running: Promise<void>;
}

/**
 * Flushes at once: a commit that lands while one flushes starts the other at once instead of
 * waiting for the one running to end; a third waits for the first of them to end.
 */
const FLUSHERS = 2;

export class WalFlusher {
  private readonly flushers: Flusher[] = Array.from({ length: FLUSHERS }, () => ({ fd: undefined, carrying: undefined, running: Promise.resolve() }));
  /** Waiting for a flusher: they asked after every flush running began. */
  private queued: Waiter[] = [];
  private failure: Error | undefined;
  private flushCount = 0;

  /**
   * `wal` is the log's path; `failed` is told once, when a flush fails: it is then unknown what
   * of the log is on disk, every waiter and every later one is refused, and the commits must
   * sync themselves.
   */
  constructor(
    private readonly wal: string,
    private readonly failed: (error: Error) => void,
  ) {}

  /** Flushes done: what /metrics shows beside the writes. */
  get flushes(): number {
    return this.flushCount;
  }

  /** Whether a waiter waits, queued or carried by a flush. */
  awaited(): boolean {
    return this.queued.length > 0 || this.flushers.some((flusher) => (flusher.carrying?.length ?? 0) > 0);
  }

  /** Done once a flush that began after the call is done. */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ resolve, reject });
      this.dispatch();
    });
  }

  /** Done once the flushes running are done; closes the log's file. */
  async stop(): Promise<void> {
    await Promise.all(this.flushers.map((flusher) => flusher.running));
    for (const flusher of this.flushers) {
      if (flusher.fd !== undefined) closeSync(flusher.fd);
      flusher.fd = undefined;
    }
  }

  /** Hands every queued waiter to an idle flusher, if one is. */
  private dispatch(): void {
    if (this.queued.length === 0) return;
    const idle = this.flushers.find((flusher) => flusher.carrying === undefined);
    if (!idle) return;
    idle.carrying = this.queued;
    this.queued = [];
    idle.running = this.flush(idle).then(
      () => this.flushed(idle),
      (error: Error) => this.fail(error),
    );
  }

  private async flush(flusher: Flusher): Promise<void> {
    const current = statSync(this.wal, { throwIfNoEntry: false })?.ino;
    if (flusher.fd !== undefined && fstatSync(flusher.fd).ino !== current) {
      closeSync(flusher.fd);
      flusher.fd = undefined;
    }
    // No log file: its last connection closed it, checkpointed into the database file and synced.
    if (current === undefined) return;
    const fd = (flusher.fd ??= openSync(this.wal, 'r'));
    await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  private flushed(flusher: Flusher): void {
    const done = flusher.carrying ?? [];
    flusher.carrying = undefined;
    this.flushCount += 1;
    this.dispatch();
    for (const waiter of done) waiter.resolve();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = new Error(`the write-ahead log could not be synced: ${error.message}`);
    const waiting = [...this.flushers.flatMap((flusher) => flusher.carrying ?? []), ...this.queued];
    for (const flusher of this.flushers) flusher.carrying = undefined;
    this.queued = [];
    this.failed(error);
    for (const waiter of waiting) waiter.reject(this.failure);
  }
}
