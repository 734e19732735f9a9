/**
 * The bill a cancellation names (DESIGN §6: a bill sent again with `canceled: true` and the
 * original's `bill_number`), with what reversing it needs: its owner, its point and credit
 * records, the vouchers it used, and whether it is cancelled already. A store holds only its own bills
 * (src/sync/protocol/scopes.ts), so a bill sold at another store is asked of the hub
 * (`GET /sync/v1/original-bill`); offline, the hub completes the cancellation when the
 * command reaches it (src/features/checkout/cancellations.ts).
 */
import { z } from 'zod';
import type { Ledger } from '../../loyalty/ledger.js';
import type { CheckoutRepo } from './checkout.repo.js';

const Kind = z.enum(['collection', 'redemption']);

export const OriginalBill = z.object({
  purchase: z.object({
    id: z.string(),
    customer_id: z.string().nullable(),
    store_id: z.string(),
    external_purchase_id: z.string(),
    bill_number: z.string().nullable(),
    total_price_minor: z.number().int(),
    canceled: z.number().int(),
    bill: z.string(),
  }),
  /** The customer the bill belongs to (its own or a later assignment's); null for none. */
  owner: z.string().nullable(),
  points: z.array(z.object({ id: z.string(), kind: Kind, points_milli: z.number().int() })),
  credits: z.array(z.object({ id: z.string(), customer_id: z.string(), kind: Kind, amount_minor: z.number().int() })),
  /** The vouchers it used, which its cancellation gives back (absent from a hub of a release before cancellations gave vouchers back). */
  vouchers: z.array(z.object({ id: z.string(), voucher_id: z.string() })).default([]),
  /** The purchase that already cancels it, if any. */
  cancellation: z.string().nullable(),
});
export type OriginalBill = z.infer<typeof OriginalBill>;

/** Where a store asks the hub for a bill sold elsewhere: the bill, undefined when the hub has none, 'unreachable' when it does not answer. */
export type RemoteOriginals = (storeId: string, billNumber: string) => Promise<OriginalBill | undefined | 'unreachable'>;

export class OriginalBills {
  constructor(
    private readonly repo: CheckoutRepo,
    private readonly ledger: Pick<Ledger, 'points' | 'credits'>,
  ) {}

  /** The purchase that cancels a bill, if any, but `except`. */
  cancellationOf(purchaseId: string, except = ''): string | undefined {
    return this.repo.cancellationOf(purchaseId, except);
  }

  /** The bill as this node holds it, or undefined; `cancelledBy` is not counted as its cancellation. */
  local(storeId: string, billNumber: string, cancelledBy = ''): OriginalBill | undefined {
    const purchase = this.repo.purchaseByBillNumber(storeId, billNumber);
    if (!purchase) return undefined;
    const owner = this.repo.assignedCustomer(purchase);
    return {
      purchase,
      owner,
      points: owner ? this.ledger.points.recordsOfCustomer(owner).filter((record) => record.purchase_id === purchase.id) : [],
      credits: this.ledger.credits.recordsOfPurchase(purchase.id),
      vouchers: this.repo.voucherApplicationsOf(purchase.id),
      cancellation: this.cancellationOf(purchase.id, cancelledBy) ?? null,
    };
  }
}
