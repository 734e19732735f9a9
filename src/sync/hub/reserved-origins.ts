/**
 * The origins no store may stamp with (DESIGN §5 "Authority"): the hub's own — the node part of
 * every stamp the hub makes, whose rows would pass for the hub's — and the id of every other
 * node the hub registered. A command stamped with one is rejected before its origin is bound
 * to anyone (src/sync/hub/command-policy.ts); an origin another store pushed first is that
 * store's by its binding.
 */
import type { Statement } from '../../db/engine.js';
import type { Db } from '../../db/open.js';

export class ReservedOrigins {
  private readonly hubOrigin: string | undefined;
  private readonly otherNode: Statement<[string, string], number>;

  constructor(db: Db) {
    // The hub's clock stamps with the node id its database was given (src/db/node-identity.ts).
    this.hubOrigin = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'node_id'").pluck().get();
    this.otherNode = db.prepare<[string, string], number>('SELECT 1 FROM nodes WHERE id = ? AND id <> ?').pluck();
  }

  /** Why `nodeId` may not stamp with `origin`; undefined when it may. */
  refusal(nodeId: string, origin: string): string | undefined {
    if (origin === this.hubOrigin) return `stamped as node ${origin}, the hub's own origin`;
    if (this.otherNode.get(origin, nodeId) !== undefined) return `stamped as node ${origin}, another node's id`;
    return undefined;
  }
}
