/**
 * The calls handed to a thread, taken in a turn of its event loop of their own: all those
 * waiting when the turn comes, then the loop's other work — its timers, and the turns of its
 * background tasks. Node delivers a port's messages a thousand at a time at least, so a thread
 * that answered each call as its message arrived did nothing else for as long as calls kept
 * coming: a store's writer thread kept busy by its tills ran no sync round, and pushed nothing
 * until they stopped (test/bench/README.md).
 */
export class CallQueue<Call> {
  private readonly queued: Call[] = [];
  private scheduled = false;

  constructor(private readonly take: (call: Call) => void) {}

  add(call: Call): void {
    this.queued.push(call);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.runAll());
  }

  /** Takes every call waiting now. */
  runAll(): void {
    this.scheduled = false;
    for (const call of this.queued.splice(0)) this.take(call);
  }
}
