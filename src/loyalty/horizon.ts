/**
 * The horizon of the hub's customer states (src/loyalty/CONTEXT.md): the oldest stamp a store
 * heard from within the offline age reported having pushed everything up to, never older
 * than that age. The store with that stamp holds it back: while it is silent, every
 * customer's state keeps each fact since in its tail, and a card used at every till grows
 * with each bill (the README's "What each node keeps"). The hub's status page, /health and
 * /metrics show it (src/sync/hub/settling-status.ts).
 */
import type { Statement } from '../db/engine.js';
import { encodeHlc } from '../core/hlc.js';
import type { Db } from '../db/open.js';
import type { SyncNodeClocksRow } from '../db/tables.generated.js';

export interface HorizonAt {
  stamp: string;
  /** The node whose pushed-through stamp the horizon is; undefined when it is the offline age's floor. */
  heldBy: string | undefined;
}

export class Horizon {
  private readonly oldestPushed: Statement<[string], Pick<SyncNodeClocksRow, 'node_id' | 'pushed_through'>>;

  constructor(
    db: Db,
    private readonly offlineAgeMs: number,
  ) {
    this.oldestPushed = db.prepare(
      'SELECT node_id, pushed_through FROM sync_node_clocks WHERE reported_at >= ? ORDER BY pushed_through, node_id LIMIT 1',
    );
  }

  at(now: number): HorizonAt {
    const floor = encodeHlc({ ms: Math.max(0, now - this.offlineAgeMs), counter: 0, node: '' });
    const oldest = this.oldestPushed.get(new Date(now - this.offlineAgeMs).toISOString());
    return oldest !== undefined && oldest.pushed_through > floor
      ? { stamp: oldest.pushed_through, heldBy: oldest.node_id }
      : { stamp: floor, heldBy: undefined };
  }
}
