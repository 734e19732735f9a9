/**
 * The hub's check of who speaks in a store's command (DESIGN §5 "Authority"): a node secret
 * lets a store push the operations its tills served, for its own stores, in its own name. The
 * operation itself is judged by the feature code the hub runs it through
 * (src/sync/hub/hub-operations.ts). A command is rejected, with the reason, and listed like any
 * rejection when
 *
 * - its stamp is malformed, or comes from an origin (the node part of a stamp) another node
 *   pushed first — each origin is bound to the node that first pushed it, so a store cannot
 *   speak for another — or from a reserved one: the hub's own, or another registered node's id
 *   (src/sync/hub/reserved-origins.ts), which binds to no one;
 * - its operation names a store the node does not serve (`loyaltyd nodes add --store`).
 *
 * What this cannot tell: which stores a node registered without `--store` serves.
 */
import type { Statement } from '../../db/engine.js';
import type { Clock } from '../../core/clock.js';
import { HLC_STAMP, originOfStamp } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import { ReservedOrigins } from './reserved-origins.js';

export class CommandRejected extends Error {}

export class CommandPolicy {
  private readonly ownerOf: Statement<[string], string>;
  private readonly bind: Statement<[string, string, string]>;
  private readonly storesOf: Statement<[string], string>;
  private readonly owners = new Map<string, string>();
  private readonly reserved: ReservedOrigins;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.ownerOf = db.prepare<[string], string>('SELECT node_id FROM sync_node_origins WHERE origin = ?').pluck();
    this.bind = db.prepare('INSERT INTO sync_node_origins (origin, node_id, first_seen_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.storesOf = db.prepare<[string], string>('SELECT store_id FROM node_stores WHERE node_id = ?').pluck();
    this.reserved = new ReservedOrigins(db);
  }

  /** The origin of a command's stamp, bound to the node that first pushed it; throws CommandRejected when another node speaks for it. */
  originOf(nodeId: string, stamp: string): string {
    if (!HLC_STAMP.test(stamp)) throw new CommandRejected('the command has a malformed stamp');
    const origin = originOfStamp(stamp);
    const refusal = this.reserved.refusal(nodeId, origin);
    if (refusal !== undefined) throw new CommandRejected(refusal);
    // A binding committed never changes: each is read once. One made here may still be taken
    // back with its command's savepoint, so it is read again next time.
    const owner = this.owners.get(origin) ?? this.ownerOf.get(origin);
    if (owner !== undefined && owner !== nodeId) throw new CommandRejected(`stamped as node ${origin}, which another node speaks for`);
    if (owner === undefined) this.bind.run(origin, nodeId, new Date(this.clock()).toISOString());
    else this.owners.set(origin, owner);
    return origin;
  }

  /** Throws CommandRejected when the node is bound to stores and this is not one of them. */
  checkStore(nodeId: string, storeId: string, what: string): void {
    const served = this.storesOf.all(nodeId);
    if (served.length > 0 && !served.includes(storeId)) throw new CommandRejected(`${what} names store ${storeId}, which this node does not serve`);
  }

  /**
   * Forgets the bindings read so far, for a transaction that rolled back: one it made and a
   * later command read back is gone with it, and is read again (and made again) next time.
   */
  forgetOwners(): void {
    this.owners.clear();
  }
}
