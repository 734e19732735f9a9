/**
 * Backups with SQLite's online backup API (DESIGN §7), and the checks a restore needs.
 *
 * The backup API copies the database page by page, each step inside a read transaction, so
 * a daemon goes on serving and writing beside it (WAL). When another connection writes
 * between two steps, SQLite starts the copy again from its first page; under a steady load
 * of commits that would never end, so the copy moves in steps a fiftieth of the file large
 * for its progress, and once a write has made it start again it copies all that remains in
 * one step. The copy is consistent at the moment its last step began.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateFolder, preparePrivateFile } from '../core/private-files.js';
import type { SqliteDb } from './open.js';

export interface BackupProgress {
  copiedPages: number;
  totalPages: number;
}

const ALL_PAGES = 0x7fffffff;

/** Copies `db` to `file` (which must not exist, and is made 0600) and checks the copy; resolves to its page count. */
export async function backupDatabase(db: SqliteDb, file: string, onProgress?: (progress: BackupProgress) => void): Promise<number> {
  if (existsSync(file)) throw new Error(`${file} exists; a backup is written to a new file`);
  let remainingBefore = Infinity;
  let restarted = false;
  try {
    preparePrivateFile(file, { mustBeNew: true });
    const result = await db.backup(file, {
      progress({ totalPages, remainingPages }) {
        if (remainingPages > remainingBefore) restarted = true;
        remainingBefore = remainingPages;
        onProgress?.({ copiedPages: totalPages - remainingPages, totalPages });
        return restarted ? ALL_PAGES : Math.max(100, Math.ceil(totalPages / 50));
      },
    });
    onProgress?.({ copiedPages: result.totalPages, totalPages: result.totalPages });
    const problems = integrityProblems(file);
    if (problems.length > 0) throw new Error(`the backup failed its integrity check: ${problems.join('; ')}`);
    return result.totalPages;
  } catch (error) {
    removeDatabaseFiles(file);
    throw error;
  }
}

/** What `PRAGMA integrity_check` finds wrong with a database file; empty when it is sound. */
export function integrityProblems(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const found = db.prepare<[], string>('PRAGMA integrity_check').pluck().all();
    return found.length === 1 && found[0] === 'ok' ? [] : found;
  } finally {
    db.close();
  }
}

/**
 * Whether a connection other than ours has the database open (a daemon, or a CLI command on
 * its folder): a connection in WAL mode holds a shared lock on the file while it is open, so
 * no other can take the file exclusively.
 */
export function isInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Puts a copy of `source` in place of `target`, which nothing may have open: the copy is made
 * beside the target first, the target and its log are moved aside (their new names are
 * returned), then the copy takes the target's name.
 */
export async function replaceDatabase(source: string, target: string, aside: string): Promise<string[]> {
  const copy = `${target}.restoring`;
  makePrivateFolder(dirname(target));
  removeDatabaseFiles(copy);
  preparePrivateFile(copy, { mustBeNew: true });
  const reader = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await reader.backup(copy);
  } finally {
    reader.close();
  }
  const moved: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    if (!existsSync(`${target}${suffix}`)) continue;
    renameSync(`${target}${suffix}`, `${aside}${suffix}`);
    moved.push(`${aside}${suffix}`);
  }
  renameSync(copy, target);
  return moved;
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}
