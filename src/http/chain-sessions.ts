/**
 * Credential calls at a store with a hub (DESIGN §4, §5 "Credentials stay at the hub"): only the
 * hub vouches for a customer's password, login code or setup secret, so a store asks its hub to
 * make them (`atHub` endpoints, src/http/endpoint.ts) and keeps what the answer gives it — the
 * session the hub made for its caller (`store_sessions`) — until the customer logs out. While
 * the hub does not answer, such a call answers 503; sessions that exist keep working.
 */
import type { HistoryRead } from './history-reads.js';
import type { StoredResponse } from './idempotency.js';

/** A credential call asked of the hub: the call as the store received it, for the caller it authenticated. */
export interface SessionRequest extends HistoryRead {
  method: 'GET' | 'POST' | 'PUT';
  body: unknown;
  /** The caller's address as the store saw it, which the hub throttles failed logins by. */
  ip: string;
}

export interface ChainSessions {
  /** The hub's answer to the call, whatever its status, or undefined when it gives none in time. */
  begin(request: SessionRequest): Promise<StoredResponse | undefined>;
}
