/**
 * A store's credential calls, made at its hub (src/http/chain-sessions.ts): customer-app logins,
 * logouts, login codes, password-setup mail, registrations and changes carrying a password. The
 * hub can log in only a customer it holds, so a call waits, within the timeout, for this store's
 * agent to push what it queued before it (src/sync/store/queue-pushed.ts); the hub then runs the
 * call for the caller this store authenticated, throttled by the caller's address this store
 * names. A customer app's token travels with the call without its secret — its fields in a
 * header, its hash in place of the secret in the call's path — : the hub keeps it as this
 * node's, and the session it makes reaches this node alone. No answer in time, or a failure
 * of the hub's: undefined, and the store answers 503 (src/http/routes.ts).
 */
import type { ChainSessions, SessionRequest } from '../../http/chain-sessions.js';
import { apiPathOf } from '../../http/history-reads.js';
import type { StoredResponse } from '../../http/idempotency.js';
import { sha256Hex } from '../../auth/secrets.js';
import type { Principal } from '../../http/principal.js';
import type { ForwardedToken } from '../protocol/protocol.js';
import type { HubClient } from './hub-client.js';
import type { QueuePushed } from './queue-pushed.js';

export class HubSessions implements ChainSessions {
  constructor(
    private readonly pushed: QueuePushed,
    private readonly client: HubClient,
    private readonly timeoutMs: number,
    /** A token this store holds, by its id (its secret's hash), without the secret. */
    private readonly tokenOf: (tokenId: string) => ForwardedToken | undefined,
  ) {}

  async begin(request: SessionRequest): Promise<StoredResponse | undefined> {
    const { principal } = request;
    const deadline = Date.now() + this.timeoutMs;
    if (!(await this.pushed.by(deadline))) return undefined;
    let answer;
    try {
      answer = await this.client.credentialCall(
        {
          method: request.method,
          apiPath: apiPathOf({ ...request, path: withoutTokenSecret(request.path, principal) }),
          principal,
          token: principal.kind === 'token' ? this.tokenOf(principal.tokenId) : undefined,
          body: request.body,
          address: request.ip,
        },
        Math.max(1, deadline - Date.now()),
      );
    } catch {
      return undefined;
    }
    if (answer.status >= 500) return undefined;
    return { status: answer.status, body: answer.body };
  }
}

/** The token a credential call's path names. */
const TOKEN_PATH = /^\/tokens\/([^/]+)/;

/**
 * The call's path with the token it names as its hash, the caller's own token's id at the hub
 * (TokensService.ownToken), never its secret; another token than the caller's is named by none,
 * and the hub answers that as the store would.
 */
function withoutTokenSecret(path: string, principal: Principal): string {
  const named = TOKEN_PATH.exec(path)?.[1];
  if (named === undefined) return path;
  const own = principal.kind === 'token' && sha256Hex(decodeURIComponent(named)) === principal.tokenId;
  return path.replace(TOKEN_PATH, `/tokens/${own ? principal.tokenId : 'another-token'}`);
}
