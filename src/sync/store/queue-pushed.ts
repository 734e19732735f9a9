/**
 * Whether what this store queued before a call has reached its hub. A history read or a login
 * the store asks of the hub is answered from what the hub was pushed, so it first waits, up to
 * its deadline, for the agent to push what was queued before it (a bill sold a moment ago, the
 * token a login names). Not waited for while the agent's rounds fail: the hub cannot hold it.
 */
import type { Statement } from '../../db/engine.js';
import type { Db } from '../../db/open.js';
import { SyncState } from '../sync-state.js';

const POLL_MS = 10;

export class QueuePushed {
  private readonly lastQueued: Statement<[], number | null>;
  private readonly firstPending: Statement<[], number | null>;
  private readonly state: SyncState;

  constructor(db: Db) {
    this.lastQueued = db.prepare<[], number | null>("SELECT max(seq) FROM outbox WHERE status = 'pending'").pluck();
    this.firstPending = db.prepare<[], number | null>("SELECT min(seq) FROM outbox WHERE status = 'pending'").pluck();
    this.state = new SyncState(db);
  }

  /** True once everything queued before now is pushed; false when the deadline (epoch ms) comes first or the rounds fail. */
  async by(deadline: number): Promise<boolean> {
    const through = this.lastQueued.get() ?? null;
    if (through === null) return true;
    while ((this.firstPending.get() ?? Infinity) <= through) {
      if (Date.now() + POLL_MS >= deadline || this.roundsFail()) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }

  private roundsFail(): boolean {
    const failedAt = this.state.get('last_error_at');
    const succeededAt = this.state.get('last_success_at');
    return failedAt !== undefined && (succeededAt === undefined || failedAt > succeededAt);
  }
}
