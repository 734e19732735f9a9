/**
 * The bill a cancellation names (DESIGN §6: a bill sent again with `canceled: true` and the
 * original's `bill_number`), with what reversing it needs: its owner, its point and credit
 * records, and whether it is cancelled already. A store holds only its own bills
 * (src/sync/scopes.ts), so a bill sold at another store is asked of the hub
 * (`GET /sync/v1/original-bill`); offline, the hub completes the cancellation when the
 * command reaches it (src/features/checkout/cancellations.ts).
 */
import { z } from 'zod';
import type { Row } from '../../db/write-path.js';
import type { CreditsRepo } from '../../loyalty/credits.repo.js';
import { derivedId } from '../../sync/ids.js';
import type { PointsRepo } from '../points/points.repo.js';
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
  /** The purchase that already cancels it, if any. */
  cancellation: z.string().nullable(),
});
export type OriginalBill = z.infer<typeof OriginalBill>;

/** Where a store asks the hub for a bill sold elsewhere: the bill, undefined when the hub has none, 'unreachable' when it does not answer. */
export type RemoteOriginals = (storeId: string, billNumber: string) => Promise<OriginalBill | undefined | 'unreachable'>;

export class OriginalBills {
  constructor(
    private readonly repo: CheckoutRepo,
    private readonly points: PointsRepo,
    private readonly credits: CreditsRepo,
  ) {}

  /** The bill as this node holds it, or undefined; `cancelledBy` is not counted as its cancellation. */
  local(storeId: string, billNumber: string, cancelledBy = ''): OriginalBill | undefined {
    const purchase = this.repo.purchaseByBillNumber(storeId, billNumber);
    if (!purchase) return undefined;
    const owner = this.repo.assignedCustomer(purchase);
    return {
      purchase,
      owner,
      points: owner ? this.points.recordsOfCustomer(owner).filter((record) => record.purchase_id === purchase.id) : [],
      credits: this.credits.recordsOfPurchase(purchase.id),
      cancellation: this.repo.cancellationOf(purchase.id, cancelledBy) ?? null,
    };
  }
}

/**
 * A cancellation's facts: the original's collections taken back and its redemptions given
 * back, points and credit, each linked to the record it reverses, with ids derived from the
 * cancelling purchase's — so store and hub, whichever makes them, make the same records.
 */
export function reversalsOf(cancellingId: string, original: OriginalBill, createdAt: string): { points: Row[]; credits: Row[] } {
  const opposite = (kind: 'collection' | 'redemption') => (kind === 'collection' ? 'redemption' : 'collection');
  const owner = original.owner;
  const points: Row[] = owner
    ? original.points.map((record) => ({
        id: derivedId(cancellingId, `reverse:${record.id}`),
        customer_id: owner,
        kind: opposite(record.kind),
        points_milli: record.points_milli,
        point_type_id: 'purchase',
        partner_id: null,
        valid_to: null,
        purchase_id: cancellingId,
        linked_point_id: record.id,
        created_at: createdAt,
        state: 1,
      }))
    : [];
  const credits: Row[] = original.credits.map((record) => ({
    id: derivedId(cancellingId, `credit:reverse:${record.id}`),
    customer_id: record.customer_id,
    kind: opposite(record.kind),
    amount_minor: record.amount_minor,
    purchase_id: cancellingId,
    linked_credit_id: record.id,
    created_at: createdAt,
    state: 1,
  }));
  return { points, credits };
}
