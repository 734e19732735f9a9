/**
 * A hub's PostgreSQL database. The serving hub opens it as the one process that writes to it:
 * its connection takes a session advisory lock that a second serving hub on the same database
 * cannot take, so that one is refused before it migrates or writes anything; the lock goes with
 * the connection. A CLI command (`nodes add`, `import`) opens it without the lock, beside the
 * running hub, as it opens a SQLite hub's file beside the running daemon.
 */
import { ConfigError } from '../../core/config.js';
import { PostgresDb } from './postgres-db.js';

/** The advisory lock's key: the same number in every hub process of every release. */
const WRITER_LOCK = 'loyaltyd hub writer';

export function openPostgres(url: string, { serving }: { serving: boolean }): PostgresDb {
  const db = new PostgresDb(url);
  if (!serving) return db;
  try {
    const held = db.prepare<[string], number>('SELECT pg_try_advisory_lock(hashtext(?))').pluck().get(WRITER_LOCK);
    if (!held)
      throw new ConfigError(
        `another loyaltyd hub is writing to the PostgreSQL database ${redacted(url)}; stop it first, or point database.url elsewhere`,
      );
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The URL without any password it holds, for a message. */
function redacted(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}
