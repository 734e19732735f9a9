/**
 * Cancellations of bills sold at another store (DESIGN §5–§6): online, the store asks the hub
 * for the original and writes the reversal itself; offline, it records the cancellation
 * without its original, and the hub, running the operation again, finds the original by store
 * and bill number itself.
 */
import type { HubHistory } from '../../sync/store/hub-history.js';
import { OriginalBill, type RemoteOriginals } from './original-bills.js';

export function remoteOriginals(hub: HubHistory): RemoteOriginals {
  return async (storeId, billNumber) => {
    const answer = await hub.lookup(`/original-bill?store_id=${encodeURIComponent(storeId)}&bill_number=${encodeURIComponent(billNumber)}`);
    if (answer === 'unreachable' || answer.status >= 500) return 'unreachable';
    if (answer.status === 404) return undefined;
    const parsed = OriginalBill.safeParse(answer.body);
    return parsed.success ? parsed.data : 'unreachable';
  };
}
