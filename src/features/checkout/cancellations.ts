/**
 * Cancellations of bills sold at another store (DESIGN §5–§6): online, the store asks the hub
 * for the original's lines, prices and points (never its customer) and records the cancellation
 * against it; offline, or past its node's reads of bills for the day, without it. Either way
 * the hub, running the operation again, finds the original by store and bill number itself and
 * writes the reversal, which reaches the store with its next round.
 */
import type { HubHistory } from '../../sync/store/hub-history.js';
import { asReturnedAtStore, ServedOriginalBill, type RemoteOriginals } from './original-bills.js';

export function remoteOriginals(hub: HubHistory): RemoteOriginals {
  return async (storeId, billNumber) => {
    const answer = await hub.lookup(`/original-bill?store_id=${encodeURIComponent(storeId)}&bill_number=${encodeURIComponent(billNumber)}`);
    // Past the node's reads of bills for the day (429), the store answers as if offline.
    if (answer === 'unreachable' || answer.status >= 500 || answer.status === 429) return 'unreachable';
    if (answer.status === 404) return undefined;
    const parsed = ServedOriginalBill.safeParse(answer.body);
    return parsed.success ? asReturnedAtStore(parsed.data) : 'unreachable';
  };
}
