/**
 * When a write is on disk (DESIGN §7: every answered write survives a power cut). A node opens
 * its database with `synchronous=FULL`, so a commit returns once its log frames are fsynced —
 * on the thread that commits. A serving node starts the WAL flushers instead: its connection
 * commits with `synchronous=NORMAL` (the frames are written to the log, not synced), and the log
 * is synced (`fdatasync`, as SQLite syncs it) on libuv's thread pool. A call that wrote is
 * answered once a flush that began after its commit is done (`durable()`); the calls that wrote
 * while the flushes ran share the next one, as PostgreSQL's commits share a WAL flush. Nothing
 * waits for the disk on the thread that commits, and a second of a hundred bills is a few dozen
 * fsyncs, not a hundred.
 *
 * A read may see a commit a few milliseconds before it is on disk; a power cut in that moment
 * loses the commit, whose caller was never answered and sends it again
 * (src/decisions/0079-wal-flusher.md).
 */
import { closeSync, fdatasync, fstatSync, openSync, statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Db } from './open.js';

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

export class Durability {
  private readonly totalChanges: () => number;
  private readonly wal: string;
  private flushers: Flusher[] = [];
  /** Waiting for a flusher: they committed after every flush running began. */
  private queued: Waiter[] = [];
  private log: Logger | undefined;
  private flushCount = 0;

  constructor(private readonly db: Db) {
    const statement = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.totalChanges = () => statement.get()!;
    this.wal = `${db.name}-wal`;
  }

  /** Rows this connection has changed since it opened: a call during which it moved wrote. */
  changes(): number {
    return this.totalChanges();
  }

  /**
   * Whether a call that wrote waits for a flush. Its answer goes out when this thread next
   * looks at its events after the flush ends, so work that holds the thread gives way to it as
   * to a call not yet taken.
   */
  awaited(): boolean {
    return this.queued.length > 0 || this.flushers.some((flusher) => (flusher.carrying?.length ?? 0) > 0);
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
    const flushers = Array.from({ length: FLUSHERS }, (): Flusher => ({ fd: undefined, carrying: undefined, running: Promise.resolve() }));
    this.flushers = flushers;
    this.db.pragma('synchronous = NORMAL');
    let stopped: Promise<void> | undefined;
    return () => {
      stopped ??= (async () => {
        if (this.flushers === flushers) {
          // Commits sync themselves again before the last flush, which covers every one made before.
          this.db.pragma('synchronous = FULL');
          await this.durable();
          this.flushers = [];
        }
        await Promise.all(flushers.map((flusher) => flusher.running));
        for (const flusher of flushers) if (flusher.fd !== undefined) closeSync(flusher.fd);
      })();
      return stopped;
    };
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

  /**
   * A flush that failed leaves it unknown what of the log is on disk: every waiter fails (their
   * callers get a server error and send again), and commits sync themselves from now on.
   */
  private fail(error: Error): void {
    this.log?.error({ err: error }, 'the write-ahead log could not be synced; commits sync themselves again');
    const flushers = this.flushers;
    this.flushers = [];
    if (this.db.open) this.db.pragma('synchronous = FULL');
    const waiting = [...flushers.flatMap((flusher) => flusher.carrying ?? []), ...this.queued];
    for (const flusher of flushers) flusher.carrying = undefined;
    this.queued = [];
    const failed = new Error(`the write-ahead log could not be synced: ${error.message}`);
    for (const waiter of waiting) waiter.reject(failed);
  }
}
