/**
 * A customer's credit (DESIGN §6): a money balance, the fold of their credit records —
 * collections less redemptions, in minor units. Credit never expires, so the fold is a sum
 * and the same facts give the same balance on every node, whatever order they arrived in.
 * A balance below zero (the same credit spent in two stores offline, or credit back taken
 * back by a return after it was spent) is kept and listed (src/sync/fold-conflicts.ts).
 */
import { derivedId } from '../sync/ids.js';
import type { CreditRow, CreditsRepo } from './credits.repo.js';

function creditBalance(records: readonly Pick<CreditRow, 'kind' | 'amount_minor'>[]): number {
  return records.reduce((balance, record) => balance + (record.kind === 'collection' ? record.amount_minor : -record.amount_minor), 0);
}

export function readCreditBalance(credits: CreditsRepo, customerId: string): number {
  return creditBalance(credits.recordsOfCustomer(customerId));
}

/** The record of the credit a purchase paid with: at most one, its id derived from the purchase's. */
export function creditPaymentId(purchaseId: string): string {
  return derivedId(purchaseId, 'credit:payment');
}
