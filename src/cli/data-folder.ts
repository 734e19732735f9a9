/**
 * A command's check of the data folder before it opens it: the database there must be of the
 * kind of node the command is for (src/db/node-mode.ts), so a hub's command never writes a
 * store's folder, nor a store's command reads a hub's as its own. A hub whose config names a
 * PostgreSQL database (`database.url`) keeps its data there rather than in the folder.
 */
import { existsSync } from 'node:fs';
import type { Config } from '../core/config.js';
import type { Db } from '../db/engine.js';
import { inspectDatabase } from '../db/open.js';
import { folderMode, type NodeMode } from '../db/node-mode.js';
import { openPostgres } from '../db/postgres/open-postgres.js';
import { databaseFile } from '../root/node.js';
import { spelt } from '../db/dialect.js';

export interface FolderCheck {
  /** Refuse a folder without a database rather than create one. */
  mustExist: boolean;
  /** What to do instead, told with the refusal. */
  advice: string;
}

export function checkDataFolder(config: Pick<Config, 'data_dir' | 'database'>, mode: NodeMode, check: FolderCheck): void {
  const url = config.database.url;
  const where = url === undefined ? config.data_dir : 'the PostgreSQL database of database.url';
  const db = url === undefined ? folderDatabase(config.data_dir) : openPostgres(url, { serving: false });
  let found: NodeMode | undefined;
  try {
    if (db === undefined || !holdsSchema(db)) {
      if (check.mustExist) throw new Error(`${where} holds no loyaltyd database; ${check.advice}`);
      return;
    }
    found = folderMode(db);
  } finally {
    db?.close();
  }
  if (found !== undefined && found !== mode) throw new Error(`${where} holds a ${found}'s database, not a ${mode}'s; ${check.advice}`);
}

function folderDatabase(dataDir: string): Db | undefined {
  const file = databaseFile(dataDir);
  return existsSync(file) ? inspectDatabase(file) : undefined;
}

/** Whether migrations made the database's tables: a SQLite file exists once opened, a PostgreSQL database before. */
function holdsSchema(db: Db): boolean {
  return db.prepare<[], number>(spelt(db, HAS_META)).pluck().get() === 1;
}

const HAS_META = {
  sqlite: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
  postgres: "SELECT count(*) FROM pg_class WHERE relname = 'meta' AND relnamespace = CAST(current_schema() AS regnamespace)",
};

/** The advice for a command that runs on either kind, by the mode it was given. */
export function modeAdvice(mode: NodeMode): string {
  return mode === 'store'
    ? "for a hub's folder give --mode hub (or LOYALTYD_MODE=hub)"
    : "for a store's folder leave out --mode hub (and LOYALTYD_MODE)";
}
