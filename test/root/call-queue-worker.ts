/**
 * A thread for test/root/call-queue.test.ts: it takes each call through a CallQueue, spends
 * BUSY_MS on it and answers; a timer counts its ticks meanwhile. `report` is answered at once
 * with the ticks counted.
 */
import { parentPort } from 'node:worker_threads';
import { CallQueue } from '../../src/root/call-queue.js';

const BUSY_MS = 2;
const TICK_MS = 20;

const port = parentPort!;
let ticks = 0;
const timer = setInterval(() => (ticks += 1), TICK_MS);
const calls = new CallQueue<number>((id) => {
  const end = performance.now() + BUSY_MS;
  while (performance.now() < end);
  port.postMessage({ answered: id });
});
port.on('message', (message: number | 'report') => {
  if (message !== 'report') return calls.add(message);
  clearInterval(timer);
  port.postMessage({ ticks });
});
