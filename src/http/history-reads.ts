/**
 * History reads at a store (DESIGN §5, "Scopes, compaction, retention"): a store holds only
 * its own facts, so a read of facts — purchases, points, events, orders, reservations — is
 * asked of the hub first and answered from local data when the hub does not reply in time.
 * The answer says which in `x-loyaltyd-source`. Checkout never takes this path.
 */
import type { StoredResponse } from './idempotency.js';
import { basePath, type Interface } from './interfaces.js';
import type { Principal } from './principal.js';

export const SOURCE_HEADER = 'x-loyaltyd-source';

export type Source = 'hub' | 'local';

/** What a store asks the hub: the interface, the path below it with its query string, and who asks. */
export interface HistoryRead {
  iface: Interface;
  path: string;
  rawQuery: string;
  principal: Principal;
}

/** The call's path under the API, with its query string, as a store asks it of its hub. */
export function apiPathOf({ iface, path, rawQuery }: Pick<HistoryRead, 'iface' | 'path' | 'rawQuery'>): string {
  return `${basePath(iface)}${path}${rawQuery ? `?${rawQuery}` : ''}`;
}

export interface HistoryReads {
  /** The hub's answer, or undefined when it has none to give in time (unreachable, slow, 404, 5xx). */
  read(request: HistoryRead): Promise<StoredResponse | undefined>;
}
