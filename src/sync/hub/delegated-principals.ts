/**
 * The caller a store names for a history read, a credential call (src/sync/hub/hub-routes.ts) or
 * an operation (src/sync/hub/hub-operations.ts), checked against the hub's own users, api users
 * and tokens before anything runs for it (DESIGN §5: forwarded calls are answered for principals
 * the hub knows to act at that node, within their rights). A node secret vouches for the store,
 * not for whoever the store names: a POS user must be one of the node's stores' (a head-office
 * user reaches no store), and a customer-app token stays at the node that made it — the hub holds
 * the tokens whose sessions it made for a node, each as that node's (`tokens.node_id`), and a
 * node acts for its own tokens alone.
 */
import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import { forbidden, invalidParam, pathNotFound, unauthorized } from '../../core/errors.js';
import { basePath } from '../../http/interfaces.js';
import type { Principal } from '../../http/principal.js';
import type { ForwardedToken } from '../protocol/protocol.js';

interface HeldToken {
  state: number;
  api_user_id: string;
  customer_id: string | null;
  node_id: string | null;
}

type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

export class DelegatedPrincipals {
  private readonly userState;
  private readonly apiUserState;
  private readonly tokenById;
  private readonly applicationExists;
  private readonly userOfNode;

  constructor(
    db: Db,
    private readonly writes: WritePath,
  ) {
    this.userState = db.prepare<[string], number>('SELECT state FROM users WHERE id = ?').pluck();
    this.apiUserState = db.prepare<[string], number>('SELECT state FROM api_users WHERE id = ?').pluck();
    this.tokenById = db.prepare<[string], HeldToken>('SELECT state, api_user_id, customer_id, node_id FROM tokens WHERE id = ?');
    this.applicationExists = db.prepare<[string], number>('SELECT 1 FROM external_applications WHERE id = ?').pluck();
    this.userOfNode = db
      .prepare<[string, string], number>('SELECT 1 FROM users u JOIN node_stores s ON s.store_id = u.store_id WHERE u.id = ? AND s.node_id = ?')
      .pluck();
  }

  /**
   * The caller of a history read `nodeId` forwards, of the API `path` names, when the hub knows
   * them to act at that node (verifyAt): an enterprise read is a POS user's, a customer read a
   * customer-app token's. Anyone else is refused (403): an anonymous or api-user caller reads no
   * history, and a token in an enterprise read would lift the customer interface's rule that a
   * session sees its own customer's records alone.
   */
  verifyReader(nodeId: string, path: string, principal: Principal): Principal {
    const within = (iface: 'enterprise' | 'customer') => path.startsWith(`${basePath(iface)}/`);
    if (within('enterprise')) {
      if (principal.kind !== 'user') throw forbidden("An enterprise history read is answered for a user of the node's stores");
      return this.verifyAt(nodeId, principal);
    }
    if (within('customer')) {
      if (principal.kind !== 'token') throw forbidden('A customer history read is answered for a customer-app token');
      return this.verifyAt(nodeId, principal);
    }
    throw pathNotFound(path);
  }

  /**
   * Keeps a store's token, sent with a credential call for it, as that node's: the hub logs in only
   * a token it holds. A token the hub holds already must be that node's; one it holds as another
   * node's, or made here, is a 403.
   */
  adoptToken(nodeId: string, principal: TokenPrincipal, token: ForwardedToken | undefined): void {
    if (!token) throw invalidParam('x-loyaltyd-token', 'required', undefined, "Send the caller's token without its secret");
    if (token.id !== principal.tokenId || token.api_user_id !== principal.apiUserId) {
      throw invalidParam('x-loyaltyd-token', 'not_allowed_value', undefined, "The token is not the caller's");
    }
    const held = this.tokenById.get(token.id);
    if (held) {
      if (held.node_id !== nodeId) throw forbidden("The token is another node's");
      return;
    }
    this.verifyApiUser(token.api_user_id);
    if (this.applicationExists.get(token.external_application_id) === undefined) {
      throw invalidParam('x-loyaltyd-token', 'not_found', token.external_application_id, 'The external application of the token is unknown');
    }
    this.writes.write(null, (tx) => tx.insert('tokens', { ...token, customer_id: null, state: 1, node_id: nodeId }));
  }

  /**
   * The principal as sent, when the hub knows it as active, it claims no more than it holds, and
   * a customer-app token naming a customer is a session the hub made for this node; else a 401
   * or 403. A token naming no customer claims nothing but its api user: it may never have left its
   * node, and the endpoint's own rules refuse it a customer's records.
   */
  verifyAt(nodeId: string, principal: Principal): Principal {
    switch (principal.kind) {
      case 'anonymous':
        return principal;
      case 'user':
        // Bearer sessions stay on the node that issued them: the hub checks the user the session is of.
        if (this.userState.get(principal.userId) !== 1) throw unauthorized('The user is unknown or not active');
        if (this.userOfNode.get(principal.userId, nodeId) === undefined) throw forbidden("The user is not a user of the node's stores");
        return principal;
      case 'api-user':
        this.verifyApiUser(principal.apiUserId);
        return principal;
      case 'token': {
        this.verifyApiUser(principal.apiUserId);
        if (principal.customerId === null) return principal;
        const token = this.tokenById.get(principal.tokenId);
        if (!token || token.state !== 1 || token.api_user_id !== principal.apiUserId) throw unauthorized('The token is not valid');
        // A session of another node's token, or one the hub did not make, is a right the store
        // lacks: 403, as the customer interface answers a token asking for another customer's records.
        if (token.node_id !== nodeId) throw forbidden("The token is not this node's");
        if (principal.customerId !== token.customer_id) throw forbidden('The token is not logged in as this customer');
        return principal;
      }
    }
  }

  private verifyApiUser(apiUserId: string): void {
    if (this.apiUserState.get(apiUserId) !== 1) throw unauthorized('Unknown api user');
  }
}
