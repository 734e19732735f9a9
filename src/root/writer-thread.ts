/**
 * The writer thread's side (src/root/writer.ts): the node as the daemon builds it, with its
 * background tasks, answering the calls the event loop sends until it is told to stop. It runs
 * a few nice levels below the event loop (on Linux): when the cores are short, the event loop's
 * reads — the next desk's accept-payment — go before a bill's feature code, a sync round or a
 * retention batch, and a bill waits for its flush anyway. The threads it starts, the checkpoint
 * worker among them, inherit its priority; Node's thread pool, started by the event loop, does
 * not. On the checkout bench's chain, accept-payment's p99 beside 100 bills a second was
 * 2.8–3.3 ms in five runs against 3.3–3.7 ms in five without, the bills' own p99 13.2–15.4 ms
 * against 14.8–15.7 ms (test/bench/README.md).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToEventLoop } from '../core/thread-priority.js';
import pino from 'pino';
import { systemClock } from '../core/clock.js';
import { ConfigError } from '../core/config.js';
import { errorAnswer } from '../http/error-handler.js';
import { JsonText } from '../http/json-text.js';
import type { Call } from '../http/routes.js';
import { writeProbe } from '../ops/node-health.js';
import { SharedCommits } from '../db/shared-commits.js';
import { WaitingCalls } from '../core/waiting-calls.js';
import { CallQueue } from './call-queue.js';
import { createApp, type App } from './app.js';
import { prepareServedFolder } from './served-folder.js';
import { PROBE_EVERY_MS, type CrossingAnswer, type FromWriter, type ToWriter, type WriterData } from './writer.js';

/** How much nicer than the event loop the writer thread is. */
const NICER_BY = 5;

const port = parentPort!;
const { config, syncAgent, demo, showcase, commits, waiting: waitingMemory } = workerData as WriterData;
const waiting = new WaitingCalls(waitingMemory);
const log = pino({ level: config.log.level });

function post(message: FromWriter): void {
  port.postMessage(message);
}

async function open(): Promise<App> {
  const app = createApp({
    config,
    clock: systemClock,
    log,
    syncAgent,
    commits: new SharedCommits(commits),
    callsWaiting: () => waiting.any(),
    flushesHandedOff: true,
  });
  await prepareServedFolder(app, config.mode, { demo, showcase });
  return app;
}

async function answer(app: App, id: number, key: string, call: Call): Promise<void> {
  // A call taken while the commits sync themselves commits so; one taken before may commit either way.
  const flushOwed = app.node.durability.flushOwed;
  try {
    const answerOf = app.answerOf(key);
    if (!answerOf) throw new Error(`the writer has no endpoint ${key}`);
    const { status, body, source, replayed } = await answerOf(call);
    const crossing: CrossingAnswer = body instanceof JsonText ? { status, bytes: body.bytes() } : { status, body };
    if (source) crossing.source = source;
    if (replayed) crossing.replayed = replayed;
    post({ kind: 'answer', id, answer: crossing, flushOwed });
  } catch (error) {
    const method = key.split(' ')[1]!.toUpperCase();
    const sent = errorAnswer(error, log, config.http.body_limit_bytes, { method, path: call.path, requestId: call.requestId });
    post({ kind: 'refused', id, error: { body: sent.body, headers: sent.headers }, flushOwed });
  }
}

yieldToEventLoop(NICER_BY);

try {
  const app = await open();
  const stopBackground = app.startBackground();
  const probe = writeProbe(app.node.db, systemClock);
  const probing = setInterval(() => {
    app.node.writes.versions.noticeOtherProcesses();
    post({ kind: 'probed', problem: probe() });
  }, PROBE_EVERY_MS);
  const calls = new CallQueue<Extract<ToWriter, { kind: 'call' }>>((call) => {
    waiting.taken();
    void answer(app, call.id, call.key, call.call);
  });
  port.on('message', (message: ToWriter) => {
    if (message.kind === 'call') return calls.add(message);
    if (message.kind === 'sync-commits') return app.node.durability.syncItself();
    clearInterval(probing);
    calls.runAll();
    void stopBackground().then(() => {
      app.close();
      port.close();
    });
  });
  post({ kind: 'ready', nodeId: app.node.identity.nodeId });
  post({ kind: 'probed', problem: probe() });
} catch (error) {
  post({ kind: 'failed', name: error instanceof ConfigError ? 'ConfigError' : 'Error', message: (error as Error).message ?? String(error) });
  port.close();
}
