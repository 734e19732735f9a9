/**
 * Which history a hub's change feed tells. A hub restored from a backup numbers its changes
 * again from the backup's position, so a store that pulled past that position holds a cursor
 * that now names other changes. Each restore gives the feed a new identity
 * (`loyaltyd restore`); pages and snapshots carry it, and a store that finds it changed
 * bootstraps again (src/sync/store/puller.ts), as after compaction. A feed never restored has the
 * first identity, kept by no row.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/open.js';

const FEED_ID_KEY = 'feed_id';
const FIRST_FEED_ID = 'first';

export function feedIdReader(db: Db): () => string {
  const read = db.prepare<[], string | undefined>(`SELECT value FROM meta WHERE key = '${FEED_ID_KEY}'`).pluck();
  return () => read.get() ?? FIRST_FEED_ID;
}

/** Gives the feed a new identity; returns it. */
export function restartFeed(db: Db): string {
  const id = randomBytes(8).toString('hex');
  db.prepare(`INSERT INTO meta (key, value) VALUES ('${FEED_ID_KEY}', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(id);
  return id;
}
