/**
 * A command's check of the data folder before it opens it: the database there must be of the
 * kind of node the command is for (src/db/node-mode.ts), so a hub's command never writes a
 * store's folder, nor a store's command reads a hub's as its own.
 */
import { existsSync } from 'node:fs';
import { inspectDatabase } from '../db/open.js';
import { folderMode, type NodeMode } from '../db/node-mode.js';
import { databaseFile } from '../root/node.js';

export interface FolderCheck {
  /** Refuse a folder without a database rather than create one. */
  mustExist: boolean;
  /** What to do instead, told with the refusal. */
  advice: string;
}

export function checkDataFolder(dataDir: string, mode: NodeMode, check: FolderCheck): void {
  const file = databaseFile(dataDir);
  if (!existsSync(file)) {
    if (check.mustExist) throw new Error(`${dataDir} holds no loyaltyd database; ${check.advice}`);
    return;
  }
  const db = inspectDatabase(file);
  let found: NodeMode | undefined;
  try {
    found = folderMode(db);
  } finally {
    db.close();
  }
  if (found !== undefined && found !== mode) throw new Error(`${dataDir} holds a ${found}'s database, not a ${mode}'s; ${check.advice}`);
}

/** The advice for a command that runs on either kind, by the mode it was given. */
export function modeAdvice(mode: NodeMode): string {
  return mode === 'store'
    ? "for a hub's folder give --mode hub (or LOYALTYD_MODE=hub)"
    : "for a store's folder leave out --mode hub (and LOYALTYD_MODE)";
}
