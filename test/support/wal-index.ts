/**
 * The log's length in frames and how many of them are copied into the database, as SQLite's
 * WAL index (the -shm file) records them: mxFrame in its header, nBackfill after the
 * header's two copies, each in the machine's byte order.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

export function logProgress(walIndexFile: string): { frames: number; copied: number } {
  const index = Buffer.alloc(100);
  const fd = openSync(walIndexFile, 'r');
  try {
    readSync(fd, index, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  const word = (offset: number) => (endianness() === 'LE' ? index.readUInt32LE(offset) : index.readUInt32BE(offset));
  return { frames: word(16), copied: word(96) };
}
