/**
 * What the hub takes from its stores at once (DESIGN §5: the hub may answer 429/503 with
 * Retry-After, and the store backs off): pushes (replays count as pushes) and snapshots in
 * flight, per node and from all stores together, and the bytes one push carries.
 * A request past its node's share is answered 429, one past the hub's 503, both before
 * its body is read; its slot is given back when its answer ends or its connection closes. A
 * node that was refused a work, or whose push was past the limits on what one push holds
 * (413), is refused that work again until its Retry-After has passed: a node that asks again
 * at once gains nothing over one that waits, and one that sends more than the hub takes costs
 * it one read a Retry-After. A node also starts `snapshots_per_node_minute` snapshots in any
 * minute at most (429, with the Retry-After until its oldest is a minute old): the slots bound
 * what is in flight, not how soon a node asks again, and each snapshot is megabytes the hub reads
 * and sends.
 * Why: src/decisions/0077-sync-limits.md, src/decisions/0087-snapshots-a-minute.md.
 */
import type { RequestHandler } from 'express';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { hubBusy, nodeBusy, snapshotsTooOften, type SyncWork } from '../../core/sync-errors.js';
import { readPushBody } from './push-body.js';

/** The answer to a push past the limits on what one push holds, after which its node waits its Retry-After. */
const PAST_LIMITS = 413;
const MINUTE_MS = 60_000;

export type SyncLimitsConfig = Config['sync_limits'];

export class SyncLimits {
  private readonly byNode: Record<SyncWork, Map<string, number>> = { push: new Map(), snapshot: new Map() };
  private readonly inAll: Record<SyncWork, number> = { push: 0, snapshot: 0 };
  /** Until when (epoch ms) each node is refused again, a work at a time. */
  private readonly refusedUntil: Record<SyncWork, Map<string, number>> = { push: new Map(), snapshot: new Map() };
  /** When (epoch ms) each node started the snapshots of its last minute, oldest first. */
  private readonly snapshotStarts = new Map<string, number[]>();

  constructor(
    private readonly limits: SyncLimitsConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes a slot of `work` for the request's node (`response.locals.nodeId`, set by
   * authentication) until the answer ends, or refuses; a push past the limits on what one push
   * holds sets its node's Retry-After for pushes.
   */
  slot(work: SyncWork): RequestHandler {
    return (_request, response, next) => {
      const nodeId = String(response.locals.nodeId);
      this.take(work, nodeId);
      response.once('close', () => this.give(work, nodeId));
      if (work === 'push') {
        response.once('finish', () => {
          if (response.statusCode === PAST_LIMITS) this.refuseFor(work, nodeId);
        });
      }
      next();
    };
  }

  /** Reads a push's or replay's body within the limits on what one push holds (src/sync/hub/push-body.ts). */
  pushBody(): RequestHandler {
    return (request, _response, next) => {
      readPushBody(request, this.limits.push_max_bytes).then((body) => {
        request.body = body;
        next();
      }, next);
    };
  }

  private take(work: SyncWork, nodeId: string): void {
    const now = this.clock();
    const until = this.refusedUntil[work].get(nodeId);
    const perNode = work === 'push' ? this.limits.pushes_per_node : this.limits.snapshots_per_node;
    if (until !== undefined && now < until) throw nodeBusy(work, perNode, Math.ceil((until - now) / 1000));
    this.refusedUntil[work].delete(nodeId);
    const retryAfter = this.limits.retry_after_seconds;
    const held = this.byNode[work].get(nodeId) ?? 0;
    if (held >= perNode) {
      this.refuseFor(work, nodeId);
      throw nodeBusy(work, perNode, retryAfter);
    }
    const inAll = work === 'push' ? this.limits.pushes_in_all : this.limits.snapshots_in_all;
    if (this.inAll[work] >= inAll) {
      this.refuseFor(work, nodeId);
      throw hubBusy(work, inAll, retryAfter);
    }
    if (work === 'snapshot') this.startSnapshot(nodeId, now);
    this.byNode[work].set(nodeId, held + 1);
    this.inAll[work] += 1;
  }

  /** Counts a snapshot the node starts, or refuses it when the node started `snapshots_per_node_minute` in the last minute. */
  private startSnapshot(nodeId: string, now: number): void {
    const limit = this.limits.snapshots_per_node_minute;
    const starts = (this.snapshotStarts.get(nodeId) ?? []).filter((at) => at > now - MINUTE_MS);
    if (starts.length >= limit) {
      this.snapshotStarts.set(nodeId, starts);
      throw snapshotsTooOften(limit, Math.ceil((starts[0]! + MINUTE_MS - now) / 1000));
    }
    starts.push(now);
    this.snapshotStarts.set(nodeId, starts);
  }

  private refuseFor(work: SyncWork, nodeId: string): void {
    this.refusedUntil[work].set(nodeId, this.clock() + this.limits.retry_after_seconds * 1000);
  }

  private give(work: SyncWork, nodeId: string): void {
    const held = (this.byNode[work].get(nodeId) ?? 1) - 1;
    if (held > 0) this.byNode[work].set(nodeId, held);
    else this.byNode[work].delete(nodeId);
    this.inAll[work] -= 1;
  }
}
