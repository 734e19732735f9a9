/**
 * The key this node hashes its short login codes with. A six-digit code hashed without a
 * key is reversed by trying every code, in a second; keyed, the hash in the database says
 * nothing to whoever holds the database file without the key. The key lives beside the
 * database, not in it, readable by the daemon's user only, and never leaves the node: a
 * code is checked where it was issued (src/sync/protocol/scopes.ts, `auth_tokens`). A node whose key
 * file is lost makes a new one; the codes issued before it, minutes-lived, stop working.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateFolder, writePrivateFile } from '../core/private-files.js';

const KEY_FILE = 'auth-code.key';

export function loadNodeKey(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  try {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateFolder(dataDir);
  const key = randomBytes(32);
  // A new file only: two processes starting at once cannot both write a key; the loser reads the winner's.
  try {
    writePrivateFile(path, `${key.toString('hex')}\n`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  }
}
