/**
 * The stamp each store reports, on every pull, as having pushed everything up to
 * (sync_node_clocks): the bound of the horizon of the customer states the hub publishes
 * (src/loyalty/customer-states.ts). A report is never ahead of the hub's own clock: one ahead is
 * brought back to it, in the store's origin. Nor does it go back: a report behind the node's
 * previous one, or behind the newest stamp of its commands the hub applied (every fact stamped
 * before that command is at the hub, src/sync/store/pusher.ts), is ignored — the node's kept
 * stamp stays — so a store cannot hold the chain's horizon back by reporting a stamp far in the
 * past. A store's stamps go back only when its clock does: a database restored or made anew
 * (a new generation) stamps from its wall clock again, which is past what it pushed before
 * unless the clock stepped back, and then its reports count again once the clock passes them
 * (src/decisions/0100-origins-stamps-bodies-and-bill-reads.md).
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import { originOfStamp, stampInOrigin, type HybridLogicalClock } from '../../core/hlc.js';

export class NodeClocks {
  private readonly save: Statement<[string, string, string, string]>;

  constructor(
    db: Db,
    private readonly hlc: HybridLogicalClock,
    private readonly clock: Clock,
  ) {
    // The later of the report and the newest stamp applied, as the greater of the two in one
    // aggregate: neither engine's function of two values is the other's.
    this.save = db.prepare(
      `INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at)
       VALUES (?, (SELECT max(stamp) FROM (SELECT CAST(? AS TEXT) AS stamp UNION ALL SELECT last_hlc FROM sync_node_progress WHERE node_id = ?) AS stamps), ?)
       ON CONFLICT (node_id) DO UPDATE SET
         pushed_through = CASE WHEN excluded.pushed_through > sync_node_clocks.pushed_through THEN excluded.pushed_through ELSE sync_node_clocks.pushed_through END,
         reported_at = excluded.reported_at`,
    );
  }

  report(nodeId: string, pushedThrough: string): void {
    const now = this.hlc.now();
    const kept = pushedThrough < now ? pushedThrough : stampInOrigin(now, originOfStamp(pushedThrough));
    this.save.run(nodeId, kept, nodeId, new Date(this.clock()).toISOString());
  }
}
