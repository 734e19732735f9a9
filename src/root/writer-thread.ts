/**
 * The writer thread's side (src/root/writer.ts): the node as the daemon builds it, with its
 * background tasks, answering the calls the event loop sends until it is told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { systemClock } from '../core/clock.js';
import { ConfigError } from '../core/config.js';
import { errorAnswer } from '../http/error-handler.js';
import { JsonText } from '../http/json-text.js';
import type { Call } from '../http/routes.js';
import { writeProbe } from '../ops/node-health.js';
import { SharedCommits } from '../db/shared-commits.js';
import { createApp, type App } from './app.js';
import { prepareServedFolder } from './served-folder.js';
import { PROBE_EVERY_MS, type CrossingAnswer, type FromWriter, type ToWriter, type WriterData } from './writer.js';

const port = parentPort!;
const { config, syncAgent, demo, showcase, commits } = workerData as WriterData;
const log = pino({ level: config.log.level });

function post(message: FromWriter): void {
  port.postMessage(message);
}

async function open(): Promise<App> {
  const app = createApp({ config, clock: systemClock, log, syncAgent, commits: new SharedCommits(commits) });
  await prepareServedFolder(app, config.mode, { demo, showcase });
  return app;
}

async function answer(app: App, id: number, key: string, call: Call): Promise<void> {
  const flushes = () => app.node.durability.flushes;
  try {
    const answerOf = app.answerOf(key);
    if (!answerOf) throw new Error(`the writer has no endpoint ${key}`);
    const { status, body, source, replayed } = await answerOf(call);
    const crossing: CrossingAnswer = body instanceof JsonText ? { status, bytes: body.bytes() } : { status, body };
    if (source) crossing.source = source;
    if (replayed) crossing.replayed = replayed;
    post({ kind: 'answer', id, answer: crossing, flushes: flushes() });
  } catch (error) {
    const method = key.split(' ')[1]!.toUpperCase();
    const sent = errorAnswer(error, log, config.http.body_limit_bytes, { method, path: call.path, requestId: call.requestId });
    post({ kind: 'refused', id, error: { body: sent.body, headers: sent.headers }, flushes: flushes() });
  }
}

try {
  const app = await open();
  const stopBackground = app.startBackground();
  const probe = writeProbe(app.node.db, systemClock);
  const probing = setInterval(() => {
    app.node.writes.versions.noticeOtherProcesses();
    post({ kind: 'probed', problem: probe() });
  }, PROBE_EVERY_MS);
  port.on('message', (message: ToWriter) => {
    if (message.kind === 'call') return void answer(app, message.id, message.key, message.call);
    clearInterval(probing);
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
