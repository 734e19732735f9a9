/**
 * Table versions, for caches on the hot path that must notice a reload without querying the
 * table, and read transactions that share one read of the version.
 */
import type { Statement } from './engine.js';
import type { Db } from './open.js';
import type { SharedCommits } from './shared-commits.js';
import { spelt } from './dialect.js';

/**
 * On a store with a writer thread (src/root/writer.ts), which side of it this connection is: the
 * thread's counts its commits in `commits`, the event loop's reads them instead of data_version.
 */
export interface WriterSide {
  side: 'writer' | 'reader';
  commits: SharedCommits;
}

/** What a version is read against: data_version, or the writer thread's commits per table. */
type Seen = number | Int32Array;

/**
 * A number that moves when another connection commits. PostgreSQL has no data_version: the
 * next transaction id of the current snapshot moves whenever any transaction takes one, which
 * every write does, so it moves at least as often as a commit elsewhere.
 */
const DATA_VERSION = {
  sqlite: 'PRAGMA data_version',
  postgres: 'SELECT CAST(CAST(pg_snapshot_xmax(pg_current_snapshot()) AS text) AS bigint)',
};

export class TableVersions {
  /** Row writes made through this connection, per table. */
  private readonly writesPerTable = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  /** better-sqlite3 builds a transaction wrapper per call to db.transaction(); one is made and reused. */
  private readonly inTransaction: (run: () => unknown) => unknown;
  /** Inside reading(): its depth, and what it read the version against. */
  private readingDepth = 0;
  private readingSeen: Seen | undefined;
  /** Outside transactions: what this turn of the event loop read the version against (turnTableVersion). */
  private turnSeen: Seen | undefined;
  /** On the writer thread: tables written in the transaction under way, counted once it has ended. */
  private readonly unpublished = new Set<string>();
  private lastDataVersion: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly writer?: WriterSide,
  ) {
    this.inTransaction = db.transaction((run: () => unknown) => run());
    this.dataVersion = db.prepare<[], number>(spelt(db, DATA_VERSION)).pluck();
  }

  /** Counts a row write to `table` made through this connection. */
  wrote(table: string): void {
    this.writesPerTable.set(table, (this.writesPerTable.get(table) ?? 0) + 1);
    if (this.writer?.side !== 'writer') return;
    if (this.unpublished.size === 0) queueMicrotask(() => this.publish());
    this.unpublished.add(table);
  }

  /**
   * On the writer thread: tells the event loop of a commit another process made (a
   * `loyaltyd import` on the folder of the running daemon), which the thread's own
   * data_version shows; the thread asks every few seconds.
   */
  noticeOtherProcesses(): void {
    const version = this.dataVersion.get()!;
    if (this.lastDataVersion !== undefined && version !== this.lastDataVersion) this.writer?.commits.committedElsewhere();
    this.lastDataVersion = version;
  }

  /**
   * A value that moves whenever one of `tables` may have changed: this connection's writes are
   * counted here, and `PRAGMA data_version` moves when another connection commits (a
   * `loyaltyd import` or `program load` run on the folder of a running daemon). A write that
   * rolls back still moves it, which costs the cache one needless reload. On the event loop
   * beside a writer thread, the thread's commits to `tables` move it, and another process's
   * commits a few seconds later.
   */
  tableVersion(...tables: string[]): string {
    return this.versionOf(this.snapshotSeen(), tables);
  }

  /**
   * tableVersion for a cache checked before every call, outside the call's transaction (the
   * Bearer sessions): outside a transaction, data_version is read once a turn of the event
   * loop, so the calls a turn serves — several tills' requests under load — share one read
   * transaction instead of taking one each. A commit by another process during the turn is
   * seen from the next, as if it had come after those calls.
   */
  turnTableVersion(...tables: string[]): string {
    if (this.db.inTransaction) return this.tableVersion(...tables);
    if (this.turnSeen === undefined) {
      this.turnSeen = this.seenNow();
      setImmediate(() => (this.turnSeen = undefined));
    }
    return this.versionOf(this.turnSeen, tables);
  }

  /**
   * Runs a handler's reads in one read transaction: they see one snapshot and take SQLite's
   * locks once instead of once per statement (DESIGN §7), and the caches they ask for a
   * tableVersion share one read of data_version, which cannot move for a snapshot already taken.
   * Beside a writer thread its commits are read before the transaction's first statement, so
   * no cache is keyed by a commit its snapshot does not hold.
   */
  reading<T>(work: () => T): T {
    const outermost = this.readingDepth === 0;
    if (outermost && this.writer?.side === 'reader') this.readingSeen = this.writer.commits.snapshot();
    return this.inTransaction(() => {
      this.readingDepth += 1;
      try {
        return work();
      } finally {
        this.readingDepth -= 1;
        if (this.readingDepth === 0) this.readingSeen = undefined;
      }
    }) as T;
  }

  private versionOf(seen: Seen, tables: string[]): string {
    if (typeof seen !== 'number') return this.writer!.commits.versionOf(seen, tables);
    return `${seen}:${tables.map((table) => this.writesPerTable.get(table) ?? 0).join(':')}`;
  }

  private seenNow(): Seen {
    return this.writer?.side === 'reader' ? this.writer.commits.snapshot() : this.dataVersion.get()!;
  }

  private snapshotSeen(): Seen {
    if (this.readingSeen !== undefined) return this.readingSeen;
    const seen = this.seenNow();
    if (this.readingDepth > 0) this.readingSeen = seen;
    return seen;
  }

  /** Counts the tables the writer thread's transaction wrote, once it has committed or rolled back. */
  private publish(): void {
    if (this.db.inTransaction) return void setImmediate(() => this.publish());
    this.writer!.commits.committed(this.unpublished);
    this.unpublished.clear();
  }
}
