/**
 * Table versions, for caches on the hot path that must notice a reload without querying the
 * table, and read transactions that share one read of the version.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';

export class TableVersions {
  /** Row writes made through this connection, per table. */
  private readonly writesPerTable = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  /** better-sqlite3 builds a transaction wrapper per call to db.transaction(); one is made and reused. */
  private readonly inTransaction: (run: () => unknown) => unknown;
  /** Inside reading(): its depth, and data_version as read in it. */
  private readingDepth = 0;
  private readingDataVersion: number | undefined;
  /** Outside transactions: data_version as read in this turn of the event loop (turnTableVersion). */
  private turnDataVersion: number | undefined;

  constructor(private readonly db: Db) {
    this.inTransaction = db.transaction((run: () => unknown) => run());
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Counts a row write to `table` made through this connection. */
  wrote(table: string): void {
    this.writesPerTable.set(table, (this.writesPerTable.get(table) ?? 0) + 1);
  }

  /**
   * A value that moves whenever one of `tables` may have changed: this connection's writes are
   * counted here, and `PRAGMA data_version` moves when another connection commits (a
   * `loyaltyd import` or `program load` run on the folder of a running daemon). A write that
   * rolls back still moves it, which costs the cache one needless reload.
   */
  tableVersion(...tables: string[]): string {
    return this.versionOf(this.snapshotVersion(), tables);
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
    if (this.turnDataVersion === undefined) {
      this.turnDataVersion = this.dataVersion.get()!;
      setImmediate(() => (this.turnDataVersion = undefined));
    }
    return this.versionOf(this.turnDataVersion, tables);
  }

  /**
   * Runs a handler's reads in one read transaction: they see one snapshot and take SQLite's
   * locks once instead of once per statement (DESIGN §7), and the caches they ask for a
   * tableVersion share one read of data_version, which cannot move for a snapshot already taken.
   */
  reading<T>(work: () => T): T {
    return this.inTransaction(() => {
      this.readingDepth += 1;
      try {
        return work();
      } finally {
        this.readingDepth -= 1;
        if (this.readingDepth === 0) this.readingDataVersion = undefined;
      }
    }) as T;
  }

  private versionOf(dataVersion: number, tables: string[]): string {
    return `${dataVersion}:${tables.map((table) => this.writesPerTable.get(table) ?? 0).join(':')}`;
  }

  private snapshotVersion(): number {
    if (this.readingDataVersion !== undefined) return this.readingDataVersion;
    const version = this.dataVersion.get()!;
    if (this.readingDepth > 0) this.readingDataVersion = version;
    return version;
  }
}
