import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import { equalSecrets, newSecret, sha256Hex } from '../../auth/secrets.js';
import { invalidParam, unauthorized } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { NodesRow } from '../../db/tables.generated.js';

/** Store nodes known to a hub, each with the secret it syncs with (DESIGN §4). */
export class NodesService {
  private readonly byName;
  private readonly credentials;

  constructor(
    db: Db,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {
    this.byName = db.prepare<[string], Pick<NodesRow, 'id'>>('SELECT id FROM nodes WHERE name = ?');
    this.credentials = db.prepare<[string], Pick<NodesRow, 'id' | 'secret_hash' | 'state'>>(
      'SELECT id, secret_hash, state FROM nodes WHERE name = ?',
    );
    this.storeExists = db.prepare<[string], number>('SELECT 1 FROM stores WHERE id = ?').pluck();
    this.forgetClock = db.prepare<[string]>('DELETE FROM sync_node_clocks WHERE node_id = ?');
  }

  private readonly storeExists;
  private readonly forgetClock;

  /** The node id behind a store's sync credentials, or a 401. */
  authenticate(name: string, secret: string): string {
    const node = this.credentials.get(name);
    if (!node || node.state !== 1 || !equalSecrets(node.secret_hash, sha256Hex(secret))) throw unauthorized('Unknown node or wrong node secret');
    return node.id;
  }

  /**
   * Registers a store node. `storeIds` are the stores it serves: the facts it pushes must name
   * one of them (src/sync/hub/command-policy.ts), and it is sent their POS users alone
   * (src/sync/protocol/scopes.ts). `loyaltyd nodes add` asks for at least one; a node registered
   * with none may name any store, and is sent no user.
   */
  add(name: string, storeIds: readonly string[] = []): { node_name: string; node_secret: string; store_ids: string[] } {
    if (this.byName.get(name)) throw invalidParam('name', 'already_exists', name);
    const unknown = storeIds.find((storeId) => !this.storeExists.get(storeId));
    if (unknown !== undefined) throw invalidParam('store_id', 'not_found', unknown);
    const secret = newSecret();
    const nodeId = this.newId();
    const served = [...new Set(storeIds)];
    this.writes.write(null, (tx) => {
      tx.insert('nodes', { id: nodeId, name, secret_hash: sha256Hex(secret), state: 1 });
      for (const storeId of served) tx.insert('node_stores', { id: this.newId(), node_id: nodeId, store_id: storeId });
    });
    return { node_name: name, node_secret: secret, store_ids: served };
  }

  /**
   * Retires a store node (a store closed, or its server gone for good): its secret stops
   * working, the hub's status, /health and metrics leave it out instead of showing it silent
   * for ever, and its last report no longer holds the customer states' horizon back
   * (src/loyalty/horizon.ts). What it had not pushed is lost with it. Retiring one again does nothing.
   */
  retire(name: string): { node_name: string; retired: true } {
    const node = this.credentials.get(name);
    if (!node) throw invalidParam('name', 'not_found', name);
    if (node.state === 1) {
      this.writes.write(null, (tx) => {
        tx.update('nodes', node.id, { state: 0 });
        this.forgetClock.run(node.id);
      });
    }
    return { node_name: name, retired: true };
  }
}
