/**
 * A transaction whose commit does not wait for the disk. DESIGN §7 keeps `synchronous=FULL`
 * for the ledger: a bill, a points action, anything the API commits is fsynced before it is
 * answered. A sync round's writes are of another kind: each is done again if a power cut
 * takes it — a pulled page comes again, since the cursor is committed with it; an
 * acknowledged command is pushed again and the hub answers it as applied; retention deletes
 * again; the round's bookkeeping is rewritten next round. In WAL mode with
 * `synchronous=NORMAL` a commit is appended to the log unsynced and may be lost, never torn,
 * and the next fsynced commit makes it durable with it. An fsync here costs ~0.3 ms and up to
 * 4 ms at p99, and a round made five of them on the event loop that answers the cash desks
 * (test/bench/README.md). The setting is per connection, so it is set back before anything
 * else can run: `work` is synchronous. While the WAL flusher runs (src/db/durability.ts) every
 * commit of the connection is unsynced already, and nothing waits for these. On PostgreSQL the
 * transaction sets `synchronous_commit` off for itself alone: the same bargain, a commit that may
 * be lost in a crash but never torn.
 */
import type { Db } from './engine.js';
import { isSqlite } from './sqlite.js';

/** `PRAGMA synchronous` as SQLite reads it back: 1 is NORMAL. */
const NORMAL = 1;

export function commitUnsynced<T>(db: Db, work: () => T): T {
  if (!isSqlite(db)) return db.transaction(() => withoutCommitWait(db, work))();
  const setting = db.pragma('synchronous', { simple: true }) as number;
  if (setting === NORMAL) return db.transaction(work)();
  db.pragma('synchronous = NORMAL');
  try {
    return db.transaction(work)();
  } finally {
    db.pragma(`synchronous = ${setting}`);
  }
}

/** PostgreSQL's own spelling: the commit does not wait for the log's flush, for this transaction alone. */
function withoutCommitWait<T>(db: Db, work: () => T): T {
  db.exec('SET LOCAL synchronous_commit TO OFF');
  return work();
}
