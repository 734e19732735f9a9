/**
 * Which engine the hubs of a test run keep their data in. The sync tests run twice: once in the
 * suite with every hub on SQLite, once in the `sync-on-postgres` project (vitest.config.ts),
 * whose environment says `LOYALTYD_TEST_HUB_ENGINE=postgres`: there every hub the helpers start
 * (test/support/server.ts, cluster.ts) gets a database of its own in the run's cluster, the
 * same one again when it is started again on the same folder.
 */
import Database from 'better-sqlite3';
import type { Db } from '../../src/db/engine.js';
import { openPostgres } from '../../src/db/postgres/open-postgres.js';
import { databaseFile } from '../../src/root/node.js';
import { freshPostgresDatabase, type PostgresDatabase } from './postgres.js';

export type HubEngine = 'sqlite' | 'postgres';

export function hubEngine(): HubEngine {
  return process.env.LOYALTYD_TEST_HUB_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/** The hub's database by its data folder: a hub started again on its folder finds its data. */
const databases = new Map<string, Promise<PostgresDatabase>>();
/** Their URLs, once made. */
const urls = new Map<string, string>();

/**
 * The settings that put the hub on `dataDir` on this run's engine: none on SQLite, its own
 * database's `database.url` on PostgreSQL.
 */
export async function hubDatabaseConfig(dataDir: string): Promise<Record<string, string>> {
  if (hubEngine() === 'sqlite') return {};
  let database = databases.get(dataDir);
  if (!database) {
    database = freshPostgresDatabase();
    databases.set(dataDir, database);
  }
  const { url } = await database;
  urls.set(dataDir, url);
  return { 'database.url': url };
}

/** The environment that puts a `loyaltyd` process on `dataDir`'s hub database (LOYALTYD_DATABASE_URL), none on SQLite. */
export async function hubDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  const url = (await hubDatabaseConfig(dataDir))['database.url'];
  return url === undefined ? {} : { LOYALTYD_DATABASE_URL: url };
}

/** The PostgreSQL database of the hub on `dataDir`, when the run put it on one. */
export async function hubDatabase(dataDir: string): Promise<PostgresDatabase | undefined> {
  return databases.get(dataDir);
}

/** Drops the database of the hub on `dataDir`, when it has one: the folder is going too. */
export async function dropHubDatabase(dataDir: string): Promise<void> {
  const database = databases.get(dataDir);
  databases.delete(dataDir);
  urls.delete(dataDir);
  await (await database)?.drop();
}

/** Where the hub on `dataDir` keeps its data, as a snapshot order names it (src/sync/hub/snapshot-reading.ts). */
export function hubDatabaseSource(dataDir: string): { file: string } | { url: string } {
  const url = urls.get(dataDir);
  return url === undefined ? { file: databaseFile(dataDir) } : { url };
}

/**
 * The database of the hub on `dataDir`, for a test to read or write beside it: its SQLite file,
 * or its PostgreSQL database once the helpers above made it.
 */
export function openHubDatabase(dataDir: string, { readonly = false } = {}): Db {
  const url = urls.get(dataDir);
  if (url !== undefined) return openPostgres(url, { serving: false });
  const db = new Database(databaseFile(dataDir), { readonly, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}
