/**
 * The vouchers a closed bill used (send-purchase's `payment_recap.vouchers`, by code) and
 * their release by the bill's cancellation. A code may also name an automated reward the
 * till applied, which uses no voucher. A voucher is used once: a second bill naming it
 * answers 400 here, and one used in two stores offline — both bills facts the hub takes
 * (`usedAgainTaken`) — is listed by the fold (src/sync/fold-conflicts.ts). Application and release ids derive from the
 * purchase's, so that store and hub, whichever writes them, write one.
 */
import { derivedId } from '../../core/ids.js';
import type { WrittenRow } from '../../db/write-path.js';
import { badRequest, type InvalidParam } from '../../core/errors.js';
import type { CheckoutRepo } from './checkout.repo.js';

export interface VoucherApplicationRef {
  id: string;
  voucher_id: string;
}

export function voucherApplications(
  repo: CheckoutRepo,
  purchaseId: string,
  customerId: string | undefined,
  storeId: string,
  paidAt: number,
  codes: readonly string[],
  usedAgainTaken = false,
): WrittenRow<'voucher_applications'>[] {
  const refusals: InvalidParam[] = [];
  const applications: WrittenRow<'voucher_applications'>[] = [];
  const at = new Date(paidAt).toISOString();
  codes.forEach((code, index) => {
    const name = `bill.payment_recap.vouchers.${index}.code`;
    const voucher = repo.voucher(code);
    if (!voucher) {
      if (!repo.hasRewardCode(code)) refusals.push({ name, reason: 'not_found', value: code });
      return;
    }
    if (!customerId || voucher.customer_id !== customerId)
      return refusals.push({ name, reason: 'not_found', value: code, message: "Not a voucher of the bill's customer" });
    const usedAgain = voucher.applications > 0 && !usedAgainTaken;
    if (usedAgain || applications.some((application) => application.voucher_id === voucher.id)) {
      return refusals.push({ name, reason: 'voucher_already_used', value: code });
    }
    if ((voucher.valid_from && at < voucher.valid_from) || (voucher.valid_to && at > voucher.valid_to))
      return refusals.push({ name, reason: 'voucher_expired', value: code });
    applications.push({
      id: derivedId(purchaseId, `voucher:${voucher.id}`),
      voucher_id: voucher.id,
      store_id: storeId,
      purchase_id: purchaseId,
      applied_date: at,
    });
    return undefined;
  });
  if (refusals.length) throw badRequest(refusals, 'The bill cannot use these vouchers.');
  return applications;
}

/** A cancellation gives back the vouchers the original bill used. */
export function voucherReleases(cancellingId: string, applications: readonly VoucherApplicationRef[]): WrittenRow<'voucher_releases'>[] {
  return applications.map((application) => ({
    id: derivedId(cancellingId, `voucher:release:${application.id}`),
    application_id: application.id,
    voucher_id: application.voucher_id,
    purchase_id: cancellingId,
  }));
}
