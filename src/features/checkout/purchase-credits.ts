/**
 * The credit records of a purchase (DESIGN §6), each with an id derived from the purchase
 * id so that a purchase's effect is one record on every node: the credit the bill paid
 * with, and the credit back it earns — or, for a return, takes back. A cancellation's
 * records are reversalsOf's (original-bills.ts).
 */
import type { Clock } from '../../clock.js';
import type { Row } from '../../db/write-path.js';
import type { BillLine } from '../../loyalty/bill.js';
import { creditBack } from '../../loyalty/credit-back.js';
import type { CreditBack } from '../../loyalty/program.schemas.js';
import { derivedId } from '../../sync/ids.js';

type Kind = 'collection' | 'redemption';

/** The record of the credit a purchase paid with: at most one, its id derived from the purchase's. */
export function creditPaymentId(purchaseId: string): string {
  return derivedId(purchaseId, 'credit:payment');
}

export class PurchaseCredits {
  constructor(private readonly clock: Clock) {}

  payment(purchaseId: string, customerId: string, amountMinor: number): Row[] {
    return amountMinor > 0 ? [this.record(creditPaymentId(purchaseId), customerId, 'redemption', amountMinor, purchaseId)] : [];
  }

  /** Credit back on what the bill paid in money; a return's negative share takes credit back. */
  earned(purchaseId: string, customerId: string, rule: CreditBack | undefined, paidMinor: number, lines: BillLine[]): Row[] {
    const amount = creditBack(rule, paidMinor, lines);
    if (amount > 0) return [this.record(derivedId(purchaseId, 'credit:back'), customerId, 'collection', amount, purchaseId)];
    return amount < 0 ? [this.record(derivedId(purchaseId, 'credit:return'), customerId, 'redemption', -amount, purchaseId)] : [];
  }

  private record(id: string, customerId: string, kind: Kind, amountMinor: number, purchaseId: string): Row {
    return {
      id,
      customer_id: customerId,
      kind,
      amount_minor: amountMinor,
      purchase_id: purchaseId,
      linked_credit_id: null,
      created_at: new Date(this.clock()).toISOString(),
      state: 1,
    };
  }
}
