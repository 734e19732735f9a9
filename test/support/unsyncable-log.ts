/**
 * A log the flushers cannot sync: SQLite goes on writing the log through the file it holds
 * open, and a flusher that opens the log's path finds /dev/null there, which Linux refuses to
 * sync (EINVAL). Returns the undo, which puts the log back in its place.
 */
import { renameSync, symlinkSync, unlinkSync } from 'node:fs';

export function makeLogUnsyncable(wal: string): () => void {
  renameSync(wal, `${wal}.held`);
  symlinkSync('/dev/null', wal);
  return () => {
    unlinkSync(wal);
    renameSync(`${wal}.held`, wal);
  };
}
