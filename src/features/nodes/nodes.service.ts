import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import { equalSecrets, newSecret, sha256Hex } from '../../auth/secrets.js';
import { invalidParam, unauthorized } from '../../errors.js';
import type { IdGenerator } from '../../core/ids.js';

/** Store nodes known to a hub, each with the secret it syncs with (DESIGN §4). */
export class NodesService {
  private readonly byName;
  private readonly credentials;

  constructor(
    db: Db,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {
    this.byName = db.prepare<[string], { id: string }>('SELECT id FROM nodes WHERE name = ?');
    this.credentials = db.prepare<[string], { id: string; secret_hash: string; state: number }>(
      'SELECT id, secret_hash, state FROM nodes WHERE name = ?',
    );
  }

  /** The node id behind a store's sync credentials, or a 401. */
  authenticate(name: string, secret: string): string {
    const node = this.credentials.get(name);
    if (!node || node.state !== 1 || !equalSecrets(node.secret_hash, sha256Hex(secret))) throw unauthorized('Unknown node or wrong node secret');
    return node.id;
  }

  add(name: string): { node_name: string; node_secret: string } {
    if (this.byName.get(name)) throw invalidParam('name', 'already_exists', name);
    const secret = newSecret();
    this.writes.write(null, (tx) =>
      tx.insert('nodes', { id: this.newId(), name, secret_hash: sha256Hex(secret), state: 1 }),
    );
    return { node_name: name, node_secret: secret };
  }
}
