/**
 * A snapshot thread's side (src/sync/hub/snapshot-threads.ts): it reads the snapshots it is
 * given, one at a time, writing each page's bytes into the memory it shares with the event
 * loop and waiting for the event loop to have written them to the socket before the next. On
 * Linux the thread runs at a lower priority than the event loop (a nice value is a thread's own
 * there): a bootstrap's bulk yields the cores to the answers other nodes and the back office
 * wait for.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToEventLoop } from '../../core/thread-priority.js';
import { readSnapshot } from './snapshot-reading.js';
import type { FromSnapshotThread, ToSnapshotThread } from './snapshot-threads.js';

/** How much nicer than the event loop a snapshot thread is. */
const NICER_BY = 10;

const port = parentPort!;
const pages = new Uint8Array(workerData as SharedArrayBuffer);
/** Who waits for the event loop's next word on the snapshot being read. */
let waiting: { resolve: (message: ToSnapshotThread) => void; reject: (error: Error) => void } | undefined;

function post(message: FromSnapshotThread): void {
  port.postMessage(message);
}

function reply(): Promise<ToSnapshotThread> {
  return new Promise((resolve, reject) => {
    waiting = { resolve, reject };
  });
}

yieldToEventLoop(NICER_BY);

port.on('message', (message: ToSnapshotThread) => {
  if (message.kind !== 'read') {
    const next = waiting;
    waiting = undefined;
    if (message.kind === 'cancel') next?.reject(new Error('the snapshot reader went away'));
    else next?.resolve(message);
    return;
  }
  const sink = {
    stamp: async () => {
      post({ kind: 'stamp' });
      const answer = await reply();
      if (answer.kind !== 'stamped') throw new Error(`a stamp was asked for and ${answer.kind} came`);
      return answer.stamp;
    },
    send: async (bytes: Uint8Array) => {
      for (let at = 0; at < bytes.length; at += pages.length) {
        const part = bytes.subarray(at, at + pages.length);
        pages.set(part);
        post({ kind: 'page', length: part.length });
        await reply();
      }
    },
  };
  readSnapshot(message.order, sink).then(
    () => post({ kind: 'done' }),
    (error: unknown) => post({ kind: 'failed', message: (error as Error).message ?? String(error) }),
  );
});
