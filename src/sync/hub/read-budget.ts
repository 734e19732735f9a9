/**
 * The share of the hub's event loop one store's reads may take: its pulls of the feed, its
 * history reads and its lookups of bills sold elsewhere. These are answered on the loop every
 * store's push and pull waits on, synchronously, so the slots that bound pushes and snapshots
 * in flight do not bound them: a node asking back to back, on as many connections as it opens,
 * would take the loop in proportion. Three rules bound it:
 *
 * - A node's reads begin one a turn of the loop, in the order they came, so that what other
 *   nodes and the back office asked meanwhile is read between them; `READS_WAITING` wait at most.
 * - Each node has a balance of milliseconds, `reads_burst_ms` at most, refilled at
 *   `reads_ms_per_second`. A read is charged the time it held the loop: its authentication and
 *   the read itself. A read of a node whose balance is below zero is refused before any work.
 * - A refusal is answered 429 with the Retry-After that refills the balance once that
 *   Retry-After has passed, which leaves a node that asks again at once one request a
 *   connection a Retry-After.
 *
 * Why: src/decisions/0096-read-budget.md.
 */
import type { RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../core/clock.js';
import { readsPastShare } from '../../core/sync-errors.js';
import type { SyncLimitsConfig } from './sync-limits.js';

/** A node's reads waiting for their turn, past which one is refused as if its balance were spent. */
const READS_WAITING = 64;

interface Balance {
  ms: number;
  at: number;
}

export class ReadBudget {
  /** The nodes whose balance is below `reads_burst_ms`: a node that reads within its share is not kept. */
  private readonly balances = new Map<string, Balance>();
  /** Each node's reads waiting for their turn, the first of them the one whose turn is next. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    private readonly limits: Pick<SyncLimitsConfig, 'reads_ms_per_second' | 'reads_burst_ms'>,
    private readonly clock: Clock,
  ) {}

  /** Notes when a request reached the sync routes, before its node is authenticated. */
  arrival(): RequestHandler {
    return (_request, response, next) => {
      response.locals.arrivedAt = performance.now();
      next();
    };
  }

  /**
   * Charges a read's node (`response.locals.nodeId`, set by authentication) the time since its
   * arrival, and begins the read at the node's next turn, or refuses it.
   */
  turn(): RequestHandler {
    return (request, response, next) => {
      const nodeId = String(response.locals.nodeId);
      const balance = this.charge(nodeId, performance.now() - Number(response.locals.arrivedAt));
      const reads = this.waiting.get(nodeId) ?? [];
      if (reads.length >= READS_WAITING) return this.refuse(balance, next);
      reads.push(() => {
        if (request.socket.destroyed) return;
        const balance = this.balanceOf(nodeId);
        if (balance < 0) this.refuse(balance, next);
        else next();
      });
      if (reads.length > 1) return;
      this.waiting.set(nodeId, reads);
      setImmediate(() => this.begin(nodeId, reads));
    };
  }

  /** Runs `read` and charges the node the time it held the event loop. */
  charged<T>(nodeId: string, read: () => T): T {
    const started = performance.now();
    try {
      return read();
    } finally {
      this.charge(nodeId, performance.now() - started);
    }
  }

  /** Begins the node's first waiting read, and its next one at the loop's next turn. */
  private begin(nodeId: string, reads: Array<() => void>): void {
    try {
      reads[0]!();
    } finally {
      reads.shift();
      if (reads.length > 0) setImmediate(() => this.begin(nodeId, reads));
      else this.waiting.delete(nodeId);
    }
  }

  /** Answers 429 once the Retry-After that refills `balance` has passed: a second at least. */
  private refuse(balance: number, next: (error: Error) => void): void {
    const rate = this.limits.reads_ms_per_second;
    const retryAfter = Math.max(1, Math.ceil(-balance / rate));
    setTimeout(() => next(readsPastShare(rate, retryAfter)), retryAfter * 1000).unref();
  }

  /** The node's balance once `ms` is taken from it. */
  private charge(nodeId: string, ms: number): number {
    const balance = this.balanceOf(nodeId) - ms;
    this.balances.set(nodeId, { ms: balance, at: this.clock() });
    return balance;
  }

  private balanceOf(nodeId: string): number {
    const { reads_ms_per_second: rate, reads_burst_ms: burst } = this.limits;
    const kept = this.balances.get(nodeId);
    if (!kept) return burst;
    const ms = Math.min(burst, kept.ms + ((this.clock() - kept.at) * rate) / 1000);
    if (ms === burst) this.balances.delete(nodeId);
    return ms;
  }
}
