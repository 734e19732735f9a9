/**
 * The checkpointer's worker thread (src/db/checkpointer.ts): its own connection to the
 * database checkpoints the write-ahead log, PASSIVE, again at once while the last checkpoint
 * copied anything, after a pause when it copied nothing, until the owner posts a message.
 */
import Database from 'better-sqlite3';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

/** What the owner starts the worker with. */
export interface CheckpointWorkerData {
  file: string;
  /** How long to wait when the log had nothing left to copy. */
  idleMs: number;
}

const { file, idleMs } = workerData as CheckpointWorkerData;
const db = new Database(file);
db.pragma('synchronous = FULL');
let stopping = false;
parentPort!.once('message', () => {
  stopping = true;
});
let copied = -1;
while (!stopping) {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { checkpointed: number }[];
  const moved = result!.checkpointed !== copied;
  copied = result!.checkpointed;
  await (moved ? nextTurn() : sleep(idleMs));
}
db.close();
