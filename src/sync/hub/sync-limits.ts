/**
 * What the hub takes from its stores at once (DESIGN §5: the hub may answer 429/503 with
 * Retry-After, and the store backs off): pushes (replays count as pushes) and snapshots in
 * flight, per node and from all stores together, and the row changes one push carries. A
 * request past its node's share is answered 429, one past the hub's 503, both before its body
 * is read; its slot is given back when its answer ends or its connection closes. A node that
 * was refused is refused again until its Retry-After has passed, so a node that asks again at
 * once gains nothing over one that waits. Why the defaults are what they are:
 * src/decisions/0080-sync-limits.md.
 */
import type { RequestHandler } from 'express';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { hubBusy, nodeBusy, pushTooLarge, type SyncWork } from '../../core/sync-errors.js';

export type SyncLimitsConfig = Config['sync_limits'];

export class SyncLimits {
  private readonly byNode: Record<SyncWork, Map<string, number>> = { push: new Map(), snapshot: new Map() };
  private readonly inAll: Record<SyncWork, number> = { push: 0, snapshot: 0 };
  /** Until when (epoch ms) each refused node is refused again. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    private readonly limits: SyncLimitsConfig,
    private readonly clock: Clock,
  ) {}

  /** The largest push or replay body the hub reads, in bytes. */
  get pushMaxBytes(): number {
    return this.limits.push_max_bytes;
  }

  /** Takes a slot of `work` for the request's node (`response.locals.nodeId`, set by authentication) until the answer ends, or refuses. */
  slot(work: SyncWork): RequestHandler {
    return (_request, response, next) => {
      const nodeId = String(response.locals.nodeId);
      this.take(work, nodeId);
      response.once('close', () => this.give(work, nodeId));
      next();
    };
  }

  /** Refuses a push whose commands carry more row changes than `push_max_changes`; read from the parsed body before its schema check. */
  checkChanges(body: unknown): void {
    const changes = countChanges(body);
    if (changes > this.limits.push_max_changes) throw pushTooLarge(changes, this.limits.push_max_changes);
  }

  private take(work: SyncWork, nodeId: string): void {
    const now = this.clock();
    const until = this.refusedUntil.get(nodeId);
    const perNode = work === 'push' ? this.limits.pushes_per_node : this.limits.snapshots_per_node;
    if (until !== undefined && now < until) throw nodeBusy(work, perNode, Math.ceil((until - now) / 1000));
    this.refusedUntil.delete(nodeId);
    const retryAfter = this.limits.retry_after_seconds;
    const held = this.byNode[work].get(nodeId) ?? 0;
    if (held >= perNode) {
      this.refusedUntil.set(nodeId, now + retryAfter * 1000);
      throw nodeBusy(work, perNode, retryAfter);
    }
    const inAll = work === 'push' ? this.limits.pushes_in_all : this.limits.snapshots_in_all;
    if (this.inAll[work] >= inAll) {
      this.refusedUntil.set(nodeId, now + retryAfter * 1000);
      throw hubBusy(work, inAll, retryAfter);
    }
    this.byNode[work].set(nodeId, held + 1);
    this.inAll[work] += 1;
  }

  private give(work: SyncWork, nodeId: string): void {
    const held = (this.byNode[work].get(nodeId) ?? 1) - 1;
    if (held > 0) this.byNode[work].set(nodeId, held);
    else this.byNode[work].delete(nodeId);
    this.inAll[work] -= 1;
  }
}

/** The row changes of a push's or replay's commands, whatever else of the body its schema will refuse. */
function countChanges(body: unknown): number {
  const commands = (body as { commands?: unknown } | null)?.commands;
  if (!Array.isArray(commands)) return 0;
  let changes = 0;
  for (const command of commands) {
    const rows = (command as { changes?: unknown } | null)?.changes;
    if (Array.isArray(rows)) changes += rows.length;
  }
  return changes;
}
