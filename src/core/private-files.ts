/**
 * What the daemon writes is its own: files 0600 and folders 0700 whatever the umask, since
 * they hold customers' data, mail with password-setup links and keys. A mode given at
 * creation is only ever narrowed by the umask.
 */
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** Makes a folder, and any missing parent, 0700; a folder that exists keeps its mode. */
export function makePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: FOLDER_MODE });
}

/**
 * Creates `path` empty and 0600 when it does not exist, for SQLite to fill: SQLite keeps the
 * mode of a database file it finds, and gives its journal, WAL and shared-memory files the same.
 */
export function preparePrivateFile(path: string, options: { mustBeNew: boolean }): void {
  closeSync(openSync(path, options.mustBeNew ? 'wx' : 'a', FILE_MODE));
}

/** Writes a new 0600 file; throws when `path` exists. */
export function writePrivateFile(path: string, data: string | Buffer): void {
  writeFileSync(path, data, { mode: FILE_MODE, flag: 'wx' });
}
