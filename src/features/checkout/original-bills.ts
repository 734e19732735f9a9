/**
 * The bill a cancellation names (DESIGN §6: a bill sent again with `canceled: true` and the
 * original's `bill_number`), with what reversing it needs: its owner, its point and credit
 * records, the vouchers it used, and whether it is cancelled already. A store holds only its own bills
 * (src/sync/protocol/scopes.ts), so a bill sold at another store is asked of the hub
 * (`GET /sync/v1/original-bill`); offline, the hub completes the cancellation when the
 * command reaches it (src/features/checkout/cancellations.ts).
 *
 * The hub serves a store what a return needs of the bill and nothing of its customer
 * (`ServedOriginalBill`): its lines and prices, its points and credit, the vouchers it used and
 * whether it is cancelled already. The store records the return against it — the cancellation
 * names the original and gives its vouchers back — and leaves the points and credit to take
 * back to the hub, which runs the return again knowing the customer and writes the reversals.
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

/** What the hub answers a store asking for a bill: the bill without its customer, card or any record naming them. */
export const ServedOriginalBill = z.object({
  purchase: OriginalBill.shape.purchase.omit({ customer_id: true }),
  points: OriginalBill.shape.points,
  credits: z.array(OriginalBill.shape.credits.element.omit({ customer_id: true })),
  vouchers: OriginalBill.shape.vouchers,
  cancellation: OriginalBill.shape.cancellation,
});
export type ServedOriginalBill = z.infer<typeof ServedOriginalBill>;

/**
 * A bill the hub served, as the store's return reads it: of no customer it knows, so the return
 * takes back no points or credit here; the hub does, when it runs the return again.
 */
export function asReturnedAtStore(served: ServedOriginalBill): OriginalBill {
  return { ...served, purchase: { ...served.purchase, customer_id: null }, owner: null, points: [], credits: [] };
}

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

  /** The bill as the hub serves it to a store, or undefined: the schema strips every field it does not name. */
  served(storeId: string, billNumber: string): ServedOriginalBill | undefined {
    const bill = this.local(storeId, billNumber);
    return bill && ServedOriginalBill.parse(bill);
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
