/**
 * A store's credential calls, made at its hub (src/http/chain-sessions.ts): customer-app logins,
 * logouts, login codes, password-setup mail, registrations and changes carrying a password. The
 * hub can log in only a customer it holds, so a call waits, within the timeout, for this store's
 * agent to push what it queued before it (src/sync/store/queue-pushed.ts); the hub then runs the
 * call for the caller this store authenticated, throttled by the caller's address this store
 * names. A customer app's token travels with the call without its secret: the hub keeps it as
 * this node's, and the session it makes reaches this node alone. No answer in time, or a failure
 * of the hub's: undefined, and the store answers 503 (src/http/routes.ts).
 */
import type { ChainSessions, SessionRequest } from '../../http/chain-sessions.js';
import { apiPathOf } from '../../http/history-reads.js';
import type { StoredResponse } from '../../http/idempotency.js';
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
          apiPath: apiPathOf(request),
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
