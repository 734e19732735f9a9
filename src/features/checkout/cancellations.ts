/**
 * Cancellations of bills sold at another store (DESIGN §5–§6). Online, the store asks the hub
 * for the original (remoteOriginals) and writes the reversal itself. Offline, it records the
 * cancellation without its original; when that command reaches the hub, the hub finds the
 * original by store and bill number and writes the reversal there, in the command's
 * transaction, with the ids the store would have given it — the balance shows it at every
 * store after its next pull. The first cancellation of a bill to reach the hub stands: a
 * later one (two stores offline), or one naming a bill the hub does not know, rejects its
 * command, which the store then takes back and lists.
 */
import type { PushedCommand } from '../../sync/protocol/protocol.js';
import type { WritePath } from '../../db/write-path.js';
import type { HubHistory } from '../../sync/store/hub-history.js';
import type { CommandCompletion } from '../../sync/hub/hub-commands.js';
import { CommandRejected, REPLAY_KIND } from '../../sync/hub/command-policy.js';
import type { LedgerRecords } from '../../loyalty/ledger-records.js';
import { asReturnedAtStore, ServedOriginalBill, type OriginalBills, type RemoteOriginals } from './original-bills.js';
import { voucherReleases } from './voucher-uses.js';

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

/**
 * The hub's check of every cancellation a store pushes or replays as a row, and its completion
 * of one recorded without its original.
 */
export function completeCancellations(originals: OriginalBills, records: LedgerRecords, writes: WritePath): CommandCompletion {
  return (command: PushedCommand) => {
    if (command.kind !== 'purchases.send' && command.kind !== REPLAY_KIND) return;
    for (const change of command.changes) {
      const row = change.row;
      if (change.entity !== 'purchases' || change.op !== 'insert' || !row || row.canceled !== 1) continue;
      if (typeof row.bill_number !== 'string' || typeof row.store_id !== 'string') continue;
      const original = originals.local(row.store_id, row.bill_number, change.entity_id);
      if (!original) throw new CommandRejected('not_found');
      if (original.cancellation !== null) throw new CommandRejected('already_exists');
      if (row.cancels_purchase_id !== null) continue;
      // Completed already: the command comes again after the hub forgot its result (src/sync/hub/feed-compaction.ts).
      if (originals.cancellationOf(original.purchase.id) === change.entity_id) continue;
      const reversals = records.reversals(change.entity_id, original, String(row.payment_time));
      writes.write(null, (tx) => {
        for (const record of reversals.points) tx.insert('point_records', record);
        for (const record of reversals.credits) tx.insert('credit_records', record);
        for (const release of voucherReleases(change.entity_id, original.vouchers)) tx.insert('voucher_releases', release);
        tx.update('purchases', change.entity_id, { cancels_purchase_id: original.purchase.id });
      });
    }
  };
}
