/**
 * The query planner's statistics (sqlite_stat1) kept in step with the tables. SQLite picks a
 * plan by the row counts they hold, and a table that grew a thousandfold since they were taken
 * — a store's customer states after its bootstrap, a chain loaded by the importer, a new
 * store's first months — is read by the wrong index: with statistics taken before its states
 * were published, the checkout bench's store found each card by scanning customer_states,
 * 72 ms an accept-payment (test/bench/README.md). `PRAGMA optimize` analyses again each table
 * whose size moved some 25-fold since, within a bounded number of rows a table (SQLite's own
 * limit), and does nothing when none did. A node runs it on its read-write connection when it
 * opens, when a bootstrap has loaded its tables, and every hour while it serves.
 */
import type { Logger } from 'pino';
import type { Db } from './open.js';

/** Every table's size checked (not only those this connection read), those that moved analysed, each within a limit. */
const CHECK_ALL_AND_ANALYZE_WITHIN_LIMIT = 0x10012;
const EVERY_MS = 3_600_000;

export function refreshStatistics(db: Db): void {
  db.pragma(`optimize = ${CHECK_ALL_AND_ANALYZE_WITHIN_LIMIT}`);
}

/** Refreshes the statistics every `everyMs` on a timer that does not keep the process alive; returns the stop. */
export function startStatisticsRefresh(db: Db, log: Logger, everyMs = EVERY_MS): () => void {
  const timer = setInterval(() => {
    try {
      refreshStatistics(db);
    } catch (error) {
      log.warn({ err: error }, 'refreshing the query planner statistics failed');
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
