import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { makePrivateFolder, preparePrivateFile } from '../core/private-files.js';

export type { Db } from './engine.js';

/** A SQLite connection, for what only SQLite has: pragmas, its file's name, online backups. */
export type SqliteDb = Database.Database;

/**
 * Opens a database file with the pragmas of DESIGN §7. `synchronous=FULL` because the
 * ledger of money and points must survive a power cut at the cash desk. No `mmap_size`: a
 * map made accept-payment slower on a chain's large file and counted its pages in the
 * daemon's memory, over its budget; the file is read through SQLite's own cache
 * (test/bench/README.md keeps the figures). A new file, and its folder, only this user may read.
 */
export function openDatabase(file: string): SqliteDb {
  makePrivateFolder(dirname(file));
  preparePrivateFile(file, { mustBeNew: false });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return withPragmas(db);
}

/**
 * Opens the database of a node whose writer thread holds the read-write connection
 * (src/root/writer.ts): the event loop's own connection, which can only read. The file is
 * in WAL mode already (the writer opened it first), so it reads beside the writer's commits.
 * Its page cache is 8 MB, a quarter of what a connection that writes keeps: SQLite empties a
 * connection's cache when a read begins after another connection committed, so while a store
 * sells, each read after a bill finds it empty. 8 MB served the checkout bench's reads as fast as 32 MB,
 * and the daemon's peak memory was lower: 242 MB against 273 MB, means of five and six runs
 * (test/bench/README.md).
 */
export function openReadOnlyDatabase(file: string): SqliteDb {
  return withPragmas(new Database(file, { readonly: true, fileMustExist: true }), READER_CACHE_KIB);
}

/** A database file read as it is, for a look that ends soon: none of a node's pragmas, SQLite's default cache. */
export function inspectDatabase(file: string): SqliteDb {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/**
 * 32 MB of page cache (SQLite's default is 2 MB), in KiB as SQLite counts a negative
 * cache_size: the catalogue's and the indexes' upper pages stay in the process's memory
 * between the connection's own commits. More measured no faster on the checkout bench and
 * brought the daemon's peak memory to its budget.
 */
const CACHE_KIB = 32_768;
const READER_CACHE_KIB = 8192;

function withPragmas(db: SqliteDb, cacheKib = CACHE_KIB): SqliteDb {
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${cacheKib}`);
  return db;
}
