/**
 * What a serving hub last knew of its change feed, kept in its data folder beside (or instead of)
 * its database: the feed's identity and its newest change's position, written each minute and when
 * the hub stops. A hub that finds its database's feed behind the mark of the same feed was given an
 * older copy of its database — a backup put back by PostgreSQL's tools or by hand, a standby that had
 * not caught up — and its stores may have pulled past that feed's end: the changes it would number
 * again from there are not the ones they hold under those positions. So it refuses to serve until the
 * feed is renewed (`loyaltyd hub restored`, or `loyaltyd restore`, which renews it itself), and every
 * store then bootstraps once (src/sync/hub/feed-identity.ts). The mark may lag the feed by the minute
 * between two writes: a copy that lost less than that is not seen.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError } from '../../core/config.js';
import type { Db } from '../../db/open.js';
import { feedIdReader } from './feed-identity.js';

const MARK_FILE = 'feed-mark.json';
const MARK_EVERY_MS = 60_000;

const FeedMark = z.object({ feed_id: z.string(), position: z.number().int().nonnegative() });
type FeedMark = z.infer<typeof FeedMark>;

function markOf(db: Db): FeedMark {
  return {
    feed_id: feedIdReader(db)(),
    position: db.prepare<[], number | null>('SELECT max(seq) FROM changes').pluck().get() ?? 0,
  };
}

function readMark(dataDir: string): FeedMark | undefined {
  const file = join(dataDir, MARK_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return FeedMark.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** Throws, saying what to do, when the database's feed is behind the mark the hub on `dataDir` left of the same feed. */
export function checkFeedMark(db: Db, dataDir: string): void {
  const mark = readMark(dataDir);
  if (!mark) return;
  const now = markOf(db);
  if (now.feed_id !== mark.feed_id || now.position >= mark.position) return;
  throw new ConfigError(
    `the database's change feed ends at ${now.position}, behind the ${mark.position} this hub served from ${dataDir}: ` +
      'its database was put back from an older copy, and its stores may hold changes it lost. ' +
      'If that is so, run `loyaltyd hub restored` on this folder (the daemon stopped) so that every store bootstraps again from it ' +
      '(a SQLite hub is put back with `loyaltyd restore`, which does it); else point the hub at its current database',
  );
}

/** Writes the mark each minute while the hub serves, and once more when it stops. */
export function keepFeedMark(db: Db, dataDir: string, log: Logger): () => void {
  const write = () => {
    try {
      const file = join(dataDir, MARK_FILE);
      writeFileSync(`${file}.new`, JSON.stringify(markOf(db)));
      renameSync(`${file}.new`, file);
    } catch (error) {
      log.warn({ err: error }, 'the feed mark could not be written');
    }
  };
  write();
  const timer = setInterval(write, MARK_EVERY_MS).unref();
  return () => {
    clearInterval(timer);
    write();
  };
}
