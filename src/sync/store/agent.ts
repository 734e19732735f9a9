/**
 * A store's sync agent: a round (bootstrap if needed, replay to a restored hub, push, pull) every
 * `sync.interval_seconds`, and soon after a local write queues a command — after the round
 * under way, when one is, since a round pushes only what was pending as it began. Failures back off
 * exponentially with jitter, honouring the hub's Retry-After. Rounds run between API calls
 * on the same event loop; each step holds SQLite only for one transaction, so a checkout
 * never waits for the network.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { commitUnsynced } from '../../db/unsynced-commit.js';
import { bootstrapIfNeeded, type BootstrapProgress } from './bootstrap.js';
import { HubError } from './hub-client.js';
import { recordRound } from './round-log.js';
import type { SyncParts } from './sync-parts.js';

const NUDGE_DELAY_MS = 200;
/** Retention runs at most this often, and for at most its budget a round (src/sync/store/retention.ts). */
const RETENTION_EVERY_MS = 60_000;
const RETENTION_BUDGET_MS = 200;
const MAX_BACKOFF_MS = 60_000;

export interface RoundOutcome {
  ok: boolean;
  bootstrapped: boolean;
  pushed: number;
  rejected: number;
  /** Commands the hub holds for an operator (src/sync/hub/held-commands.ts). */
  held: number;
  pulled: number;
  /** Rows retention deleted in this round. */
  retained?: number;
  error?: string;
  /** The HTTP status the hub refused the round with (401: it refuses this node's name or secret). */
  hubStatus?: number;
  retryAfterMs?: number;
}

/** One round; never throws, so the scheduler never sees an unhandled rejection. */
export async function runRound(parts: SyncParts, clock: Clock, onProgress?: (progress: BootstrapProgress) => void): Promise<RoundOutcome> {
  const started = clock();
  commitUnsynced(parts.db, () => parts.state.set('last_attempt_at', new Date(started).toISOString()));
  const outcome: RoundOutcome = { ok: false, bootstrapped: false, pushed: 0, rejected: 0, held: 0, pulled: 0 };
  try {
    outcome.bootstrapped = await bootstrapIfNeeded(parts, onProgress);
    const replayed = await parts.replay.replayAll();
    const pushed = await parts.pusher.pushAll();
    outcome.pushed = replayed + pushed.sent;
    outcome.rejected = pushed.rejected;
    outcome.held = pushed.held;
    outcome.pulled = (await parts.puller.pullAll()).applied;
    outcome.retained = (await parts.retention.runIfDue(RETENTION_EVERY_MS, RETENTION_BUDGET_MS))?.deleted ?? 0;
    outcome.ok = true;
  } catch (error) {
    outcome.error = (error as Error).message;
    if (error instanceof HubError && error.status !== undefined) outcome.hubStatus = error.status;
    if (error instanceof HubError && error.retryAfterSeconds !== undefined) outcome.retryAfterMs = error.retryAfterSeconds * 1000;
  }
  const { ok, pushed, rejected, pulled, error, hubStatus } = outcome;
  const ended = new Date(clock()).toISOString();
  commitUnsynced(parts.db, () => {
    if (error === undefined) parts.state.set('last_success_at', ended);
    else {
      parts.state.set('last_error', error);
      parts.state.set('last_error_at', ended);
    }
    recordRound(parts.state, {
      started_at: new Date(started).toISOString(),
      ms: clock() - started,
      ok,
      pushed,
      rejected,
      pulled,
      error: error ?? null,
      hub_status: hubStatus ?? null,
    });
  });
  return outcome;
}

export class SyncAgent {
  private task: ScheduledTask | undefined;
  private nudgeTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private nextRoundAt = 0;
  private failures = 0;
  /** A write queued a command while a round ran. */
  private queuedInRound = false;
  private stopped = false;

  constructor(
    private readonly parts: SyncParts,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.task = cron.schedule('* * * * * *', () => this.tick(), { name: 'sync-rounds', noOverlap: true });
    this.parts.writes.onCommandQueued(() => this.nudge());
    this.tick();
  }

  /** A local write queued a command: run a round soon, once for a burst of writes. */
  nudge(): void {
    if (this.running) this.queuedInRound = true;
    if (this.nudgeTimer || this.failures > 0 || this.stopped) return;
    this.nudgeTimer = setTimeout(() => {
      this.nudgeTimer = undefined;
      this.nextRoundAt = 0;
      this.tick();
    }, NUDGE_DELAY_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task?.destroy();
    if (this.nudgeTimer) clearTimeout(this.nudgeTimer);
    await this.running;
    await this.parts.client.close();
  }

  private tick(): void {
    if (this.running || this.stopped || this.clock() < this.nextRoundAt) return;
    this.queuedInRound = false;
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.queuedInRound) this.nudge();
    });
  }

  private async round(): Promise<void> {
    const started = this.clock();
    const outcome = await runRound(this.parts, this.clock);
    const ms = this.clock() - started;
    if (outcome.ok) {
      this.failures = 0;
      this.nextRoundAt = this.clock() + this.intervalMs;
      this.log.info({ sync: 'round', ms, ...outcome }, 'sync round');
      return;
    }
    this.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1) * (0.5 + Math.random()));
    this.nextRoundAt = this.clock() + Math.max(backoff, outcome.retryAfterMs ?? 0);
    this.log.warn(
      { sync: 'round', ms, failures: this.failures, retry_in_ms: Math.round(this.nextRoundAt - this.clock()), ...outcome },
      'sync round failed',
    );
  }
}
