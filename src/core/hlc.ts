/**
 * Hybrid logical clock (DESIGN §5): physical milliseconds, a counter and the node id.
 * Encoded as fixed-width hex so that string order is time order, which lets SQLite
 * compare stamps with plain text comparison.
 */
import type { Clock } from './clock.js';

export interface HlcStamp {
  readonly ms: number;
  readonly counter: number;
  readonly node: string;
}

const MAX_COUNTER = 0xffff;

/** Characters before a stamp's origin: 12 of milliseconds, a dash, 4 of counter, a dash. */
const ORIGIN_OFFSET = 18;

export function encodeHlc(stamp: HlcStamp): string {
  return `${stamp.ms.toString(16).padStart(12, '0')}-${stamp.counter.toString(16).padStart(4, '0')}-${stamp.node}`;
}

/** A stamp's milliseconds alone: also of a bound with no node, such as the horizon's offline-age floor. */
export function msOfStamp(text: string): number {
  return Number.parseInt(text.slice(0, 12), 16);
}

/** A well-formed stamp as another node sends one: lowercase hex milliseconds and counter, and a node id. */
export const HLC_STAMP = /^[0-9a-f]{12}-[0-9a-f]{4}-[0-9a-z]+$/;

/** The node that made a stamp: the stamp's last part. */
export function originOfStamp(stamp: string): string {
  return stamp.slice(ORIGIN_OFFSET);
}

/** A stamp with the time and counter of `timeOf` and the origin `origin`. */
export function stampInOrigin(timeOf: string, origin: string): string {
  return `${timeOf.slice(0, ORIGIN_OFFSET)}${origin}`;
}

/**
 * The SQL for the origin of the stamp in `column`. An index on the origin is built on this
 * very text (purchases_by_origin on `substr(hlc, 19)`): SQLite uses an index on an expression
 * only for a query that writes the expression the same way.
 */
export function hlcOriginSql(column: string): string {
  return `substr(${column}, ${ORIGIN_OFFSET + 1})`;
}

export function decodeHlc(text: string): HlcStamp {
  const match = /^([0-9a-f]{12})-([0-9a-f]{4})-(.+)$/.exec(text);
  if (!match) throw new Error(`not an HLC stamp: ${text}`);
  return { ms: parseInt(match[1]!, 16), counter: parseInt(match[2]!, 16), node: match[3]! };
}

export class HybridLogicalClock {
  private lastMs = 0;
  private lastCounter = 0;

  constructor(
    private readonly node: string,
    private readonly wallClock: Clock,
    resumeFrom?: string,
  ) {
    if (resumeFrom) this.observe(resumeFrom);
  }

  /** A new stamp, strictly greater than every stamp issued or observed before. */
  now(): string {
    const wall = this.wallClock();
    if (wall > this.lastMs) {
      this.lastMs = wall;
      this.lastCounter = 0;
    } else {
      this.advanceCounter();
    }
    return encodeHlc({ ms: this.lastMs, counter: this.lastCounter, node: this.node });
  }

  /** Moves the clock past a stamp received from another node. */
  observe(remote: string): void {
    const { ms, counter } = decodeHlc(remote);
    if (ms > this.lastMs || (ms === this.lastMs && counter > this.lastCounter)) {
      this.lastMs = ms;
      this.lastCounter = counter;
    }
  }

  /** How far the clock runs ahead of the wall clock, in ms (reported as drift). */
  drift(): number {
    return Math.max(0, this.lastMs - this.wallClock());
  }

  private advanceCounter(): void {
    if (this.lastCounter < MAX_COUNTER) {
      this.lastCounter += 1;
      return;
    }
    // The counter is exhausted within one millisecond: borrow the next millisecond
    // rather than ever issuing a stamp that does not sort after the previous one.
    this.lastMs += 1;
    this.lastCounter = 0;
  }
}
