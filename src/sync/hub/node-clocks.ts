/**
 * The stamp each store reports, on every pull, as having pushed everything up to
 * (sync_node_clocks): the bound of the horizon of the customer states the hub publishes
 * (src/loyalty/customer-states.ts). A report is never ahead of the hub's own clock.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/open.js';
import type { HybridLogicalClock } from '../../core/hlc.js';

export class NodeClocks {
  private readonly save: Statement<[string, string, string]>;

  constructor(
    db: Db,
    private readonly hlc: HybridLogicalClock,
    private readonly clock: Clock,
  ) {
    this.save = db.prepare(
      `INSERT INTO sync_node_clocks (node_id, pushed_through, reported_at) VALUES (?, ?, ?)
       ON CONFLICT (node_id) DO UPDATE SET pushed_through = max(pushed_through, excluded.pushed_through), reported_at = excluded.reported_at`,
    );
  }

  report(nodeId: string, pushedThrough: string): void {
    const now = this.hlc.now();
    this.save.run(nodeId, pushedThrough < now ? pushedThrough : now, new Date(this.clock()).toISOString());
  }
}
