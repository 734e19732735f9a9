/**
 * The round an operator asks for (`loyaltyd sync now`), run beside the daemon's own agent on
 * the same node. The hub shares its limits between the two (two pushes a node in flight, one
 * read budget a node: src/sync/hub/sync-limits.ts, read-budget.ts), so the operator's round can
 * be refused with a Retry-After while the daemon's round holds the node's share. A refusal
 * that names a Retry-After is waited out and the round run again, until a round ends, fails
 * otherwise, or the next wait would take the waits past `maxWaitMs` in all.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../core/clock.js';
import { runRound, type RoundOutcome } from './agent.js';
import type { BootstrapProgress } from './bootstrap.js';
import type { SyncParts } from './sync-parts.js';

/** A Retry-After of 0 (from a proxy: the hub names a second at least) is waited as this. */
const MIN_WAIT_MS = 1000;

export interface RoundNowOutcome extends RoundOutcome {
  /** Rounds run: one, and one more after each Retry-After waited out. */
  rounds: number;
  /** Milliseconds spent waiting for the hub's Retry-After. */
  waited_ms: number;
}

export interface RoundNowOptions {
  /** The most the waits for Retry-After may take together; 0 runs one round. */
  maxWaitMs: number;
  /** Told of each wait before it starts. */
  onWait?: (ms: number, refused: RoundOutcome) => void;
  onProgress?: (progress: BootstrapProgress) => void;
}

/** Runs rounds until one ends; what they did together, with the last round's result and error. */
export async function runRoundNow(parts: SyncParts, clock: Clock, options: RoundNowOptions): Promise<RoundNowOutcome> {
  let done: RoundNowOutcome = { ok: false, bootstrapped: false, pushed: 0, rejected: 0, held: 0, pulled: 0, rounds: 0, waited_ms: 0 };
  for (;;) {
    const outcome = await runRound(parts, clock, options.onProgress);
    done = {
      ...outcome,
      bootstrapped: done.bootstrapped || outcome.bootstrapped,
      pushed: done.pushed + outcome.pushed,
      rejected: done.rejected + outcome.rejected,
      held: done.held + outcome.held,
      pulled: done.pulled + outcome.pulled,
      retained: (done.retained ?? 0) + (outcome.retained ?? 0),
      rounds: done.rounds + 1,
      waited_ms: done.waited_ms,
    };
    if (outcome.ok || outcome.retryAfterMs === undefined) return done;
    const wait = Math.max(MIN_WAIT_MS, outcome.retryAfterMs);
    if (done.waited_ms + wait > options.maxWaitMs) return done;
    options.onWait?.(wait, outcome);
    await sleep(wait);
    done.waited_ms += wait;
  }
}
