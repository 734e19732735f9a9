/**
 * A store's writer thread's commits, counted per table in memory the thread shares with the
 * event loop (src/root/writer.ts). The event loop's caches are keyed by these counts: its
 * connection's `PRAGMA data_version` moves with every commit the thread makes, and would empty
 * every cache — the products, the rewards, the Bearer sessions — at every bill.
 *
 * A table's count moves after the commit that wrote it (`TableVersions` on the thread), so a
 * read that takes the counts before its first statement never keys a cache by a count newer
 * than what it reads. Tables share one of a fixed number of slots by a hash of their name: two
 * tables in one slot only empty each other's caches.
 */
const SLOTS = 256;

export class SharedCommits {
  private readonly counts: Int32Array;
  private readonly slots = new Map<string, number>();

  /** The memory to hand to both threads. */
  static memory(): SharedArrayBuffer {
    return new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
  }

  constructor(memory: SharedArrayBuffer) {
    this.counts = new Int32Array(memory);
  }

  /** Counts a commit that wrote these tables. */
  committed(tables: Iterable<string>): void {
    for (const table of tables) Atomics.add(this.counts, this.slotOf(table), 1);
  }

  /** Another process committed (a `loyaltyd import`, a `program load`): any table may have changed. */
  committedElsewhere(): void {
    for (let slot = 0; slot < SLOTS; slot += 1) Atomics.add(this.counts, slot, 1);
  }

  /** The counts now, for a read to key its caches by before it reads. */
  snapshot(): Int32Array {
    const copy = new Int32Array(SLOTS);
    for (let slot = 0; slot < SLOTS; slot += 1) copy[slot] = Atomics.load(this.counts, slot);
    return copy;
  }

  versionOf(snapshot: Int32Array, tables: readonly string[]): string {
    return tables.map((table) => snapshot[this.slotOf(table)]).join(':');
  }

  private slotOf(table: string): number {
    let slot = this.slots.get(table);
    if (slot === undefined) {
      // FNV-1a over the name's UTF-16 units.
      let hash = 0x811c9dc5;
      for (let index = 0; index < table.length; index += 1) hash = Math.imul(hash ^ table.charCodeAt(index), 0x01000193);
      slot = (hash >>> 0) % SLOTS;
      this.slots.set(table, slot);
    }
    return slot;
  }
}
