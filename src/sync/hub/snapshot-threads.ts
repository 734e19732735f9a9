/**
 * Where a serving hub reads its snapshots: on threads of their own, at most
 * `sync_limits.snapshots_in_all` of them, so that a store's bootstrap — tens of milliseconds of
 * SQLite a page, megabytes a snapshot — does not hold the event loop that answers every other
 * node and the back office. The event loop writes the pages a thread reads to the socket, one
 * at a time, and stamps the header's clock. A thread idle for a minute ends.
 * Why: src/decisions/0085-snapshot-threads.md.
 */
import type { Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../core/module-worker.js';
import type { SnapshotOrder } from './snapshot-reading.js';

export type ToSnapshotThread = { kind: 'read'; order: SnapshotOrder } | { kind: 'stamped'; stamp: string } | { kind: 'written' } | { kind: 'cancel' };

/** A page's bytes are the first `length` of the memory the thread shares with the event loop. */
export type FromSnapshotThread = { kind: 'stamp' } | { kind: 'page'; length: number } | { kind: 'done' } | { kind: 'failed'; message: string };

const IDLE_MS = 60_000;
/**
 * The memory a thread writes its pages into, shared with the event loop: the event loop
 * writes the socket from it rather than from a buffer made for each page, which at a
 * bootstrap's megabytes a second set off a full collection of its heap several times a second.
 * A page larger than it crosses in parts; each part is one write of the socket, which holds the
 * event loop while the kernel copies it.
 */
const PAGE_BYTES = 1 << 18;

export class SnapshotThreads {
  /** Threads between snapshots, each with the timer that ends it. */
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly pages = new WeakMap<Worker, Buffer>();
  private readonly ended = new WeakSet<Worker>();
  private readonly queued: ((worker: Worker) => void)[] = [];
  private started = 0;

  constructor(
    private readonly most: number,
    private readonly stamp: () => string,
  ) {}

  /** Reads the snapshot on a thread and writes it to `out`; fails if `out` closes first or the read fails. */
  async write(out: Writable, order: SnapshotOrder): Promise<void> {
    const worker = await this.take();
    try {
      await stream(worker, this.pages.get(worker)!, out, order, this.stamp);
    } finally {
      this.give(worker);
    }
  }

  private take(): Promise<Worker> {
    const [idle] = this.idle;
    if (idle) {
      const [worker, ending] = idle;
      clearTimeout(ending);
      this.idle.delete(worker);
      return Promise.resolve(worker);
    }
    if (this.started < this.most) {
      this.started += 1;
      // A thread never holds the daemon up as it exits: the snapshot it reads fails with the socket.
      const pages = new SharedArrayBuffer(PAGE_BYTES);
      const worker = moduleWorker(import.meta.url, 'snapshot-thread', pages);
      worker.unref();
      this.pages.set(worker, Buffer.from(pages));
      worker.once('exit', () => {
        this.started -= 1;
        this.ended.add(worker);
        const ending = this.idle.get(worker);
        if (ending) clearTimeout(ending);
        this.idle.delete(worker);
      });
      return Promise.resolve(worker);
    }
    return new Promise((resolve) => this.queued.push(resolve));
  }

  /** Hands the thread to the next snapshot waiting, or a new one in its place if it stopped; else keeps it idle. */
  private give(worker: Worker): void {
    const next = this.queued.shift();
    if (this.ended.has(worker)) {
      if (next) void this.take().then(next);
    } else if (next) {
      next(worker);
    } else {
      this.idle.set(worker, setTimeout(() => void worker.terminate(), IDLE_MS).unref());
    }
  }
}

/** One snapshot through `worker`: settles once the thread has ended its read, whatever became of `out`. */
function stream(worker: Worker, pages: Buffer, out: Writable, order: SnapshotOrder, stamp: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.destroyed) return reject(new Error('the snapshot reader went away'));
    let gone: Error | undefined;
    const tell = (message: ToSnapshotThread) => worker.postMessage(message);
    const onClose = () => {
      gone ??= new Error('the snapshot reader went away');
      tell({ kind: 'cancel' });
    };
    const onExit = (code: number) => finish(new Error(`the snapshot thread stopped (exit code ${code})`));
    const finish = (error: Error | undefined) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (message: FromSnapshotThread) => {
      if (message.kind === 'stamp') return tell({ kind: 'stamped', stamp: stamp() });
      if (message.kind === 'done') return finish(gone);
      if (message.kind === 'failed') return finish(gone ?? new Error(message.message));
      if (gone) return;
      // The thread writes its next page into the same memory once this one is on the socket.
      out.write(pages.subarray(0, message.length), (error) => {
        if (!error && !gone) tell({ kind: 'written' });
      });
    };
    worker.on('message', onMessage);
    worker.once('exit', onExit);
    out.once('close', onClose);
    tell({ kind: 'read', order });
  });
}
