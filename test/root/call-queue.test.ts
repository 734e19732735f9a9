/**
 * A thread that takes its calls through a CallQueue (src/root/call-queue.ts) runs its timers
 * while calls keep it busy: a real worker thread, sent a new call as each is answered, eight
 * in flight, as a store's event loop sends its writer thread the tills' calls.
 */
import { describe, expect, it } from 'vitest';
import { moduleWorker } from '../../src/core/module-worker.js';

const IN_FLIGHT = 8;
const BUSY_FOR_MS = 1000;

describe('a thread taking its calls through a CallQueue', () => {
  it('runs its timers between the calls while they keep it busy', async () => {
    const worker = moduleWorker(import.meta.url, 'call-queue-worker', undefined);
    try {
      let answered = 0;
      let sending = true;
      const report = new Promise<number>((resolve) => {
        worker.on('message', (message: { answered?: number; ticks?: number }) => {
          if (message.ticks !== undefined) return resolve(message.ticks);
          answered += 1;
          if (sending) worker.postMessage(answered + IN_FLIGHT);
        });
      });
      for (let id = 1; id <= IN_FLIGHT; id += 1) worker.postMessage(id);
      await new Promise((resolve) => setTimeout(resolve, BUSY_FOR_MS));
      sending = false;
      worker.postMessage('report');
      const ticks = await report;
      // Two milliseconds a call: the thread was busy all along, and its 20 ms timer ran.
      expect(answered).toBeGreaterThan(BUSY_FOR_MS / 4);
      expect(ticks, `${answered} calls answered`).toBeGreaterThanOrEqual(BUSY_FOR_MS / 20 / 4);
    } finally {
      await worker.terminate();
    }
  });
});
