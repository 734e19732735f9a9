/**
 * A store's customer-app logins made at its hub (src/http/chain-sessions.ts). The hub can
 * only log in a token it holds, with a customer it holds, so a login waits, within the
 * timeout, for this store's agent to push what it queued before the login
 * (src/sync/store/queue-pushed.ts); the hub then runs the login for the token this store
 * authenticated, throttled by the caller's address this store names. A 2xx is kept here as
 * this store's session too, so the caller's next call here is logged in before the feed brings
 * the hub's. No answer in time, a 404 (the hub does not hold the token) or a failure of the
 * hub's: undefined, and the store makes the session itself.
 */
import { z } from 'zod';
import type { ChainSessions, SessionRequest } from '../../http/chain-sessions.js';
import { apiPathOf } from '../../http/history-reads.js';
import type { StoredResponse } from '../../http/idempotency.js';
import type { HubClient } from './hub-client.js';
import type { QueuePushed } from './queue-pushed.js';

const Session = z.object({ data: z.object({ customer_id: z.string() }) });

export class HubSessions implements ChainSessions {
  constructor(
    private readonly pushed: QueuePushed,
    private readonly client: HubClient,
    private readonly timeoutMs: number,
    /** Keeps the hub's session as this store's (TokensService.adoptChainSession). */
    private readonly adopt: (tokenId: string, customerId: string) => void,
  ) {}

  async begin(request: SessionRequest): Promise<StoredResponse | undefined> {
    const { principal, body } = request;
    if (principal.kind !== 'token') return undefined;
    const deadline = Date.now() + this.timeoutMs;
    if (!(await this.pushed.by(deadline))) return undefined;
    let answer;
    try {
      // A login claims no customer yet: the hub checks the token, not a session this store made.
      answer = await this.client.session(
        apiPathOf(request),
        { ...principal, customerId: null },
        body,
        request.ip,
        Math.max(1, deadline - Date.now()),
      );
    } catch {
      return undefined;
    }
    if (answer.status === 404 || answer.status >= 500) return undefined;
    const session = Session.safeParse(answer.body);
    if (answer.status < 300 && session.success) this.adopt(principal.tokenId, session.data.data.customer_id);
    return { status: answer.status, body: answer.body };
  }
}
