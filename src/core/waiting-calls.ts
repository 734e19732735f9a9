/**
 * The calls the event loop has handed a store's writer thread (src/root/writer.ts) and the
 * thread has not taken yet, counted in memory both share. A call waits while the thread runs
 * background work — a step of the recommendation model takes 2–8 ms — so such work reads the
 * count between its batches and gives way: a bill that arrives during a step waits for one
 * batch, not the whole step.
 */
export class WaitingCalls {
  private readonly count: Int32Array;

  /** The memory to hand to both threads. */
  static memory(): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  }

  constructor(memory: SharedArrayBuffer) {
    this.count = new Int32Array(memory);
  }

  /** The event loop handed the thread a call. */
  handed(): void {
    Atomics.add(this.count, 0, 1);
  }

  /** The thread took a call. */
  taken(): void {
    Atomics.sub(this.count, 0, 1);
  }

  /** Whether a call waits for the thread. */
  any(): boolean {
    return Atomics.load(this.count, 0) > 0;
  }
}
