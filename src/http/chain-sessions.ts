/**
 * Customer-app logins at a store (DESIGN §5 "Authority"): a store with a hub asks the hub to
 * make the session, since only the hub can vouch for a customer's password to every other
 * node; the hub's session replicates as the token's `customer_id`. When the hub gives no
 * answer in time, the store makes the session itself, for itself alone (`store_sessions`),
 * until the customer logs in again online or logs out.
 */
import type { HistoryRead } from './history-reads.js';
import type { StoredResponse } from './idempotency.js';

/** A login asked of the hub: the call as the store received it, for the caller it authenticated. */
export interface SessionRequest extends HistoryRead {
  body: unknown;
  /** The caller's address as the store saw it, which the hub throttles failed logins by. */
  ip: string;
}

export interface ChainSessions {
  /** The hub's answer to the login, whatever its status, or undefined when it gives none in time. */
  begin(request: SessionRequest): Promise<StoredResponse | undefined>;
}
