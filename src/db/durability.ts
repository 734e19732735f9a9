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
 * A served store's writer thread hands its flushes off to the event loop that answers its calls
 * (`handOff()`, src/root/writer.ts): the thread commits without syncing and answers at once, and
 * the event loop flushes before it answers, so a flush's end is not seen late by a thread busy
 * with the next bill.
 *
 * A read may see a commit a few milliseconds before it is on disk; a power cut in that moment
 * loses the commit, whose caller was never answered and sends it again
 * (src/decisions/0079-wal-flusher.md).
 *
 * On PostgreSQL a commit returns once the server has it on disk (and on its synchronous
 * standby): nothing is flushed here and nothing waits.
 */
import type { Logger } from 'pino';
import type { Db } from './engine.js';
import type { SqliteDb } from './open.js';
import { isSqlite } from './sqlite.js';
import { WalFlusher } from './wal-flusher.js';

export class Durability {
  private readonly totalChanges: () => number;
  private flusher: WalFlusher | undefined;
  private flushesBefore = 0;
  private handedOff = false;

  /** SQLite's connection; undefined on PostgreSQL, whose commits are durable when they return. */
  private readonly db: SqliteDb | undefined;

  constructor(db: Db) {
    this.db = isSqlite(db) ? db : undefined;
    const statement = this.db?.prepare<[], number>('SELECT total_changes()').pluck();
    this.totalChanges = statement ? () => statement.get()! : () => 0;
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
    return this.flusher?.awaited() ?? false;
  }

  /** Flushes of the log done since the node opened: what /metrics shows beside the writes. */
  get flushes(): number {
    return this.flushesBefore + (this.flusher?.flushes ?? 0);
  }

  /**
   * Whether a commit made now is on disk only once another thread flushes the log: the flushes
   * are handed off, and that thread's flush has not failed.
   */
  get flushOwed(): boolean {
    return this.handedOff;
  }

  /** Done once everything committed before the call is on disk: at once while commits sync themselves or the flushes are handed off. */
  durable(): Promise<void> {
    return this.flusher?.durable() ?? Promise.resolve();
  }

  /** Starts the flushers: commits stop waiting for the disk. Returns their stop, done once every waiter is answered. */
  startFlusher(log: Logger): () => Promise<void> {
    const db = this.db;
    if (!db) return async () => undefined;
    const flusher = new WalFlusher(`${db.name}-wal`, (error) => {
      log.error({ err: error }, 'the write-ahead log could not be synced; commits sync themselves again');
      this.stopFlushing(flusher);
    });
    this.flusher = flusher;
    db.pragma('synchronous = NORMAL');
    let stopped: Promise<void> | undefined;
    return () => {
      stopped ??= (async () => {
        if (this.flusher === flusher) {
          // Commits sync themselves again before the last flush, which covers every one made before.
          db.pragma('synchronous = FULL');
          await flusher.durable();
          this.stopFlushing(flusher);
        }
        await flusher.stop();
      })();
      return stopped;
    };
  }

  /**
   * Commits stop syncing themselves, and the thread that answers the calls flushes the log
   * before it answers (src/root/writer.ts); `syncItself()` ends it. Returns the stop: commits
   * sync themselves again.
   */
  handOff(): () => Promise<void> {
    if (!this.db) return async () => undefined;
    this.handedOff = true;
    this.db.pragma('synchronous = NORMAL');
    return async () => this.syncItself();
  }

  /** Commits sync themselves: the flushes handed off ended, or failed. */
  syncItself(): void {
    this.handedOff = false;
    if (this.db?.open) this.db.pragma('synchronous = FULL');
  }

  /** A flusher that failed or stopped: commits sync themselves from now on. */
  private stopFlushing(flusher: WalFlusher): void {
    if (this.flusher !== flusher) return;
    this.flushesBefore += flusher.flushes;
    this.flusher = undefined;
    if (this.db?.open) this.db.pragma('synchronous = FULL');
  }
}
