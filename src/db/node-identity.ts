import { randomBytes } from 'node:crypto';
import type { Db } from './open.js';
import type { MetaRow } from './tables.generated.js';

/** Where a write that leaves its stamps in neither the feed nor the outbox keeps the newest (src/db/write-path.ts). */
export const UNSENT_STAMP_KEY = 'newest_unsent_stamp';

export interface NodeIdentity {
  /** Short random id of this database, the node part of its HLC stamps. */
  nodeId: string;
  /**
   * The generation when the database was opened. A new one begins whenever the database is
   * created anew, or is found restored from a backup (DESIGN §5); the write path and the
   * pusher read the current one from meta.
   */
  generation: string;
  /** The newest HLC stamp this database holds, so the clock resumes past it. */
  lastStamp: string | undefined;
}

export function loadNodeIdentity(db: Db): NodeIdentity {
  const read = db.prepare<[string], Pick<MetaRow, 'value'>>('SELECT value FROM meta WHERE key = ?');
  if (!db.readonly) {
    const insert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING');
    insert.run('node_id', randomBytes(4).toString('hex'));
    insert.run('generation', randomBytes(8).toString('hex'));
  }
  // A store stamps each outbox command after the changes it made, so the newest stamp
  // may be a command's; resuming from the changes alone would issue that stamp again. A
  // store with a hub keeps no feed and deletes acknowledged commands, keeping the newest
  // stamp they carried (src/sync/store/pusher.ts); a write that queued no command, of rows
  // the feed does not keep, keeps its newest stamp too (src/db/write-path.ts). The outbox's
  // newest stamp is its newest command's: a command is stamped in the transaction that
  // numbers it, by the one connection that writes, whose clock only moves on. Read by its
  // seq, it is one row, where max(hlc) read every command's texts (the outbox has no index
  // on hlc, src/decisions/0018-outbox-without-index.md).
  const lastStamp =
    db
      .prepare<[], { hlc: string | null }>(
        `SELECT max(hlc) AS hlc FROM (SELECT max(hlc) AS hlc FROM changes UNION ALL SELECT (SELECT hlc FROM outbox ORDER BY seq DESC LIMIT 1)
         UNION ALL SELECT value FROM meta WHERE key IN ('sync.acked_stamp', '${UNSENT_STAMP_KEY}')) AS stamps`,
      )
      .get()?.hlc ?? undefined;
  return { nodeId: read.get('node_id')!.value, generation: read.get('generation')!.value, lastStamp };
}
