/**
 * A store's writer thread (src/decisions/0082-writer-thread.md). The thread opens the node's
 * folder as a node on one thread opens it — migrations, the read-write connection, the WAL
 * flushers, the checkpointer, the sync agent, every background task — and answers every
 * call that may write, through the same `answerFor` (src/http/routes.ts). The event loop
 * keeps the HTTP server and a read-only connection, and answers there the calls that only
 * read: accept-payment and recommended-best-rewards, and every GET. A till's send-purchase
 * then costs the event loop its parse and a message, not its feature code and its commit, and
 * the next desk's accept-payment does not wait behind it.
 *
 * A call crosses as data (the `Call` both transports build), and comes back as the answer or
 * the error answer the thread made of it: the thread logs the unexpected ones, as the event
 * loop would have.
 *
 * The thread commits without syncing the log and answers at once; the event loop flushes the
 * log (src/db/wal-flusher.ts) before it sends the answer on, so the end of a flush is seen by a
 * loop that waits on the network, not by a thread running the next bill's feature code. If a
 * flush fails, the calls it carried and every answer owed a flush fail, and the thread is told
 * to sync its commits itself from then on; a call the thread took after that owes none.
 */
import type { Worker } from 'node:worker_threads';
import pino, { type Logger } from 'pino';
import { ConfigError, type Config } from '../core/config.js';
import { madeOnWriter, nestedTooDeeply, writerStopped, type ErrorBody } from '../core/errors.js';
import { moduleWorker } from '../core/module-worker.js';
import { SharedCommits } from '../db/shared-commits.js';
import { WalFlusher } from '../db/wal-flusher.js';
import { WaitingCalls } from '../core/waiting-calls.js';
import type { StoredResponse } from '../http/idempotency.js';
import { JsonText } from '../http/json-text.js';
import type { Call } from '../http/routes.js';
import type { WriterThread } from './http.js';
import { databaseFile } from './node.js';
import type { DemoOptions } from './served-folder.js';

/** What the thread is started with. */
export interface WriterData extends DemoOptions {
  config: Config;
  /** Where the thread counts its commits per table (src/db/shared-commits.ts). */
  commits: SharedArrayBuffer;
  /** Where the calls handed to the thread and not yet taken are counted (src/core/waiting-calls.ts). */
  waiting: SharedArrayBuffer;
  /** Whether the thread runs the store's sync agent: the daemon's does. */
  syncAgent: boolean;
}

/** An answer as it crosses: a JsonText body crosses as its bytes. */
export interface CrossingAnswer {
  status: number;
  body?: unknown;
  bytes?: Uint8Array;
  source?: StoredResponse['source'];
  replayed?: true;
}

/** `sync-commits`: the event loop's flush failed, and the thread's commits sync themselves from now on. */
export type ToWriter = { kind: 'call'; id: number; key: string; call: Call } | { kind: 'sync-commits' } | { kind: 'stop' };

export type FromWriter =
  | { kind: 'ready'; nodeId: string }
  | { kind: 'probed'; problem: string | undefined }
  | { kind: 'failed'; name: string; message: string }
  | { kind: 'answer'; id: number; answer: CrossingAnswer; flushOwed: boolean }
  | { kind: 'refused'; id: number; error: { body: ErrorBody; headers: Record<string, string> }; flushOwed: boolean };

/** How often the thread probes its connection with a write (src/ops/node-health.ts). */
export const PROBE_EVERY_MS = 2000;
/** A thread whose last probe is older than this is reported as not answering. */
const PROBE_LATE_MS = 5 * PROBE_EVERY_MS;
/** A thread asked to stop that has not exited after this long (its background tasks' stops included) is ended. */
const STOP_GRACE_MS = 30_000;

/**
 * The thread's young generation: a write's garbage is a few hundred KB, and Node's default
 * semi-spaces held some 30 MB more of the daemon's memory for it (test/bench/README.md).
 */
const WRITER_HEAP = { maxYoungGenerationSizeMb: 2 };

interface Pending {
  resolve: (answer: StoredResponse) => void;
  reject: (error: Error) => void;
}

export class Writer implements WriterThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private exited: Error | undefined;
  private stopping = false;
  private readonly stoppedListeners: ((error: Error) => void)[] = [];
  private probed = { problem: undefined as string | undefined, at: performance.now() };

  readonly commits: SharedArrayBuffer;
  private readonly waiting: WaitingCalls;

  private constructor(
    private readonly worker: Worker,
    readonly nodeId: string,
    data: WriterData,
    private readonly flusher: WalFlusher,
  ) {
    this.commits = data.commits;
    this.waiting = new WaitingCalls(data.waiting);
    worker.on('message', (message: FromWriter) => this.received(message));
    worker.once('exit', (code) => this.gone(new Error(`the writer thread stopped (exit code ${code})`)));
    worker.once('error', (error) => this.gone(error));
  }

  /** Starts the thread; done once it has opened the folder and started its background tasks. `log` hears of a failed flush. */
  static start(options: Omit<WriterData, 'commits' | 'waiting'>, log: Logger = pino({ level: 'silent' })): Promise<Writer> {
    const data: WriterData = { ...options, commits: SharedCommits.memory(), waiting: WaitingCalls.memory() };
    const worker = moduleWorker(import.meta.url, 'writer-thread', data, WRITER_HEAP);
    return new Promise((resolve, reject) => {
      const started = (message: FromWriter) => {
        if (message.kind !== 'ready' && message.kind !== 'failed') return;
        worker.off('message', started);
        if (message.kind !== 'ready') return reject(message.name === 'ConfigError' ? new ConfigError(message.message) : new Error(message.message));
        const flusher = new WalFlusher(`${databaseFile(options.config.data_dir)}-wal`, (error) => {
          log.error({ err: error }, "the write-ahead log could not be synced; the writer thread's commits sync themselves again");
          worker.postMessage({ kind: 'sync-commits' } satisfies ToWriter);
        });
        resolve(new Writer(worker, message.nodeId, data, flusher));
      };
      worker.on('message', started);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the writer thread stopped while starting (exit code ${code})`)));
    });
  }

  /** Flushes of the log done for the thread's answers: what /metrics shows. */
  get flushes(): number {
    return this.flusher.flushes;
  }

  /**
   * Why the node's writes would fail: what the thread's write probe, run every
   * PROBE_EVERY_MS, last found; or that the thread stopped, or has not probed for a while
   * (a transaction that holds it).
   */
  databaseProblem(): string | undefined {
    if (this.exited) return `the writer thread stopped: ${this.exited.message}`;
    const silentMs = performance.now() - this.probed.at;
    if (silentMs > PROBE_LATE_MS) return `the writer thread has not answered for ${Math.round(silentMs / 1000)} s`;
    return this.probed.problem;
  }

  /** Called once if the thread stops other than by `stop()`: the daemon exits, for systemd to start it again. */
  onStopped(listener: (error: Error) => void): void {
    this.stoppedListeners.push(listener);
  }

  answer(key: string, call: Call): Promise<StoredResponse> {
    if (this.exited) return Promise.reject(writerStopped());
    const id = this.nextId++;
    this.waiting.handed();
    try {
      this.worker.postMessage({ kind: 'call', id, key, call } satisfies ToWriter);
    } catch (error) {
      // A call that did not cross waits for nothing.
      this.waiting.taken();
      // Copying a value recurses into it: a body nested some thousands deep overflows the stack.
      if (error instanceof RangeError) return Promise.reject(nestedTooDeeply());
      throw error;
    }
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Stops the thread's background tasks and closes its connection; done when it has exited. */
  async stop(): Promise<void> {
    if (this.exited) return this.flusher.stop();
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ kind: 'stop' } satisfies ToWriter);
    setTimeout(() => void this.worker.terminate(), STOP_GRACE_MS).unref();
    await exited;
    await this.flusher.stop();
  }

  private received(message: FromWriter): void {
    if (message.kind === 'probed') this.probed = { problem: message.problem, at: performance.now() };
    if (message.kind !== 'answer' && message.kind !== 'refused') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    const flushed = message.flushOwed ? this.flusher.durable() : Promise.resolve();
    flushed.then(() => this.settle(message, pending), pending.reject);
  }

  private settle(message: Extract<FromWriter, { kind: 'answer' | 'refused' }>, pending: Pending): void {
    if (message.kind === 'refused') return pending.reject(madeOnWriter(message.error.body, message.error.headers));
    const { status, body, bytes, source, replayed } = message.answer;
    const answered: StoredResponse = { status, body: bytes ? new JsonText([bytes]) : body };
    if (source) answered.source = source;
    if (replayed) answered.replayed = replayed;
    pending.resolve(answered);
  }

  /** A thread that stopped answers nothing more: every call waiting on it and every later one answers 503. */
  private gone(error: Error): void {
    if (this.exited) return;
    this.exited = error;
    for (const { reject } of this.pending.values()) reject(writerStopped());
    this.pending.clear();
    if (!this.stopping) for (const listener of this.stoppedListeners) listener(error);
  }
}
