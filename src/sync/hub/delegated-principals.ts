/**
 * The caller a store names for a history read or a login (src/sync/hub/hub-routes.ts), checked against the
 * hub's own users, api users and tokens before the read runs for it (DESIGN §5: forwarded
 * reads are answered only for principals the hub knows to act at that node). A node secret
 * vouches for the store, not for whoever the store names.
 */
import type { Db } from '../../db/open.js';
import { forbidden, pathNotFound, unauthorized } from '../../core/errors.js';
import { basePath } from '../../http/interfaces.js';
import type { Principal } from '../../http/principal.js';

export class DelegatedPrincipals {
  private readonly userState;
  private readonly apiUserState;
  private readonly userOfNode;

  constructor(
    db: Db,
    /** The hub's customer-app tokens by id (the tokens feature's repo). */
    private readonly tokens: { tokenById(id: string): { state: number; api_user_id: string; customer_id: string | null } | undefined },
  ) {
    this.userState = db.prepare<[string], number>('SELECT state FROM users WHERE id = ?').pluck();
    this.apiUserState = db.prepare<[string], number>('SELECT state FROM api_users WHERE id = ?').pluck();
    this.userOfNode = db
      .prepare<[string, string], number>('SELECT 1 FROM users u JOIN node_stores s ON s.store_id = u.store_id WHERE u.id = ? AND s.node_id = ?')
      .pluck();
  }

  /**
   * The caller of a history read `nodeId` forwards, of the API `path` names, when the hub knows
   * them to act at that node: an enterprise read is a POS user's of one of the node's stores
   * (a head-office user reaches no store), a customer read a customer-app token's, as verify()
   * knows it. Anyone else is refused (403): an anonymous or api-user caller reads no history,
   * and a token in an enterprise read would lift the customer interface's rule that a session
   * sees its own customer's records alone.
   */
  verifyReader(nodeId: string, path: string, principal: Principal): Principal {
    const within = (iface: 'enterprise' | 'customer') => path.startsWith(`${basePath(iface)}/`);
    if (within('enterprise')) {
      if (principal.kind !== 'user') throw forbidden("An enterprise history read is answered for a user of the node's stores");
      this.verify(principal);
      if (this.userOfNode.get(principal.userId, nodeId) === undefined) throw forbidden("The user is not a user of the node's stores");
      return principal;
    }
    if (within('customer')) {
      if (principal.kind !== 'token') throw forbidden('A customer history read is answered for a customer-app token');
      return this.verify(principal);
    }
    throw pathNotFound(path);
  }

  /** Whether the hub holds this customer-app token (by its hash), whatever its state. */
  holdsToken(tokenId: string): boolean {
    return this.tokens.tokenById(tokenId) !== undefined;
  }

  /** The principal as sent, when the hub knows it as active and it claims no more than it holds; else a 401 or 403. */
  verify(principal: Principal): Principal {
    switch (principal.kind) {
      case 'anonymous':
        return principal;
      case 'user':
        // Bearer sessions stay on the node that issued them: the hub checks the user the session is of.
        if (this.userState.get(principal.userId) !== 1) throw unauthorized('The user is unknown or not active');
        return principal;
      case 'api-user':
        this.verifyApiUser(principal.apiUserId);
        return principal;
      case 'token': {
        this.verifyApiUser(principal.apiUserId);
        const token = this.tokens.tokenById(principal.tokenId);
        if (!token || token.state !== 1 || token.api_user_id !== principal.apiUserId) throw unauthorized('The token is not valid');
        // The token is valid, so a customer it is not logged in as is a right it lacks, not a
        // failed authentication: 403, as the customer interface answers a token with no
        // customer logged in that asks for a customer's records (src/http/customer-scope.ts)
        // and a token naming another token than its own (TokensService.ownToken). A principal
        // naming no customer claims nothing, and the endpoint's own rules refuse it a customer's records.
        if (principal.customerId !== null && principal.customerId !== token.customer_id) {
          throw forbidden('The token is not logged in as this customer');
        }
        return principal;
      }
    }
  }

  private verifyApiUser(apiUserId: string): void {
    if (this.apiUserState.get(apiUserId) !== 1) throw unauthorized('Unknown api user');
  }
}
