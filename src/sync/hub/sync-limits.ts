/**
 * What the hub takes from its stores at once (DESIGN §5: the hub may answer 429/503 with
 * Retry-After, and the store backs off): pushes (replays count as pushes) and snapshots in
 * flight, per node and from all stores together, and the bytes and row changes one push
 * carries. A request past its node's share is answered 429, one past the hub's 503, both before
 * its body is read; its slot is given back when its answer ends or its connection closes. A
 * node that was refused a work, or whose push was past the limits on what one push holds
 * (413), is refused that work again until its Retry-After has passed: a node that asks again
 * at once gains nothing over one that waits, and one that sends more than the hub takes costs
 * it one read a Retry-After.
 * Why: src/decisions/0077-sync-limits.md.
 */
import express, { type RequestHandler } from 'express';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { malformedJson } from '../../core/errors.js';
import { hubBusy, nodeBusy, pushTooLarge, type SyncWork } from '../../core/sync-errors.js';

/** The answer to a push past the limits on what one push holds, after which its node waits its Retry-After. */
const PAST_LIMITS = 413;
/** The key every row change of a push has (src/sync/protocol/protocol.ts, RowChange). */
const CHANGE_KEY = Buffer.from('"entity_id"');

export type SyncLimitsConfig = Config['sync_limits'];

export class SyncLimits {
  private readonly byNode: Record<SyncWork, Map<string, number>> = { push: new Map(), snapshot: new Map() };
  private readonly inAll: Record<SyncWork, number> = { push: 0, snapshot: 0 };
  /** Until when (epoch ms) each node is refused again, a work at a time. */
  private readonly refusedUntil: Record<SyncWork, Map<string, number>> = { push: new Map(), snapshot: new Map() };

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

  /**
   * A push's or replay's body: read up to `push_max_bytes` (a longer one is 413 before it is
   * read), then parsed, unless its text already shows more row changes than `push_max_changes`
   * — a count of one key in the bytes, far cheaper than parsing 8 MB on the event loop every
   * store waits on. A body that hides its changes from the count (an escaped key) is counted
   * again once parsed.
   */
  pushBody(): RequestHandler[] {
    const max = this.limits.push_max_changes;
    return [
      express.raw({ type: 'application/json', limit: this.limits.push_max_bytes }),
      (request, _response, next) => {
        if (!Buffer.isBuffer(request.body)) return next();
        if (occurrences(request.body, CHANGE_KEY) > max) throw pushTooLarge(max);
        let body: unknown;
        try {
          body = JSON.parse(request.body.toString('utf8'));
        } catch (error) {
          throw malformedJson((error as Error).message);
        }
        if (countChanges(body) > max) throw pushTooLarge(max);
        request.body = body;
        next();
      },
    ];
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
    this.byNode[work].set(nodeId, held + 1);
    this.inAll[work] += 1;
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

/** How many times `key` is in `text`, counted at memchr's speed. */
function occurrences(text: Buffer, key: Buffer): number {
  let count = 0;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) count += 1;
  return count;
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
