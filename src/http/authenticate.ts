/**
 * Establishes the principal of a request from its Authorization header (DESIGN §4):
 * enterprise — Bearer, or the deprecated hourly Basic for users switched to it;
 * customer — Basic `api_user:token_id`, with an empty token part for POST /tokens.
 */
import { decodeBasic, decodeBearer } from '../auth/secrets.js';
import { unauthorized } from '../core/errors.js';
import type { Authenticate } from './routes.js';

/** Each check answers the principal's id or throws 401 (the users, api-users and tokens features). */
export interface Credentials {
  users: {
    authenticateBearer(token: string): string;
    authenticateLegacyBasic(login: string, presented: string, ip: string): string;
  };
  apiUsers: { authenticate(userName: string): string };
  tokens: { authenticate(tokenId: string, apiUserId: string): { id: string; customer_id: string | null } };
}

export function createAuthenticator({ users, apiUsers, tokens }: Credentials): Authenticate {
  return async (iface, endpoint, request) => {
    const access = endpoint.access ?? 'client';
    if (access === 'public') return { kind: 'anonymous' };
    const header = request.authorization;
    if (iface === 'enterprise') {
      const bearer = decodeBearer(header);
      if (bearer) return { kind: 'user', userId: users.authenticateBearer(bearer), scheme: 'bearer' };
      const basic = decodeBasic(header);
      if (basic) {
        return { kind: 'user', userId: users.authenticateLegacyBasic(basic.user, basic.secret, request.ip), scheme: 'legacy-basic' };
      }
      throw unauthorized('Send Authorization: Bearer <token> from POST /users/actions/login');
    }
    const basic = decodeBasic(header);
    if (!basic) throw unauthorized('Send Authorization: Basic base64(api_user:token_id)');
    const apiUserId = apiUsers.authenticate(basic.user);
    if (access === 'api-user') return { kind: 'api-user', apiUserId };
    if (!basic.secret) throw unauthorized('The Authorization header carries no token id');
    const token = tokens.authenticate(basic.secret, apiUserId);
    return { kind: 'token', apiUserId, tokenId: token.id, customerId: token.customer_id };
  };
}
