/**
 * The one builder of point and credit records (DESIGN §5–§6), the facts every balance is
 * folded from (src/loyalty/CONTEXT.md). A record a purchase makes has an id derived from the
 * purchase's and its purpose, and a voucher's points cost one derived from the voucher's, so
 * that whichever node makes it, and however often, there is one; a record made by hand
 * (assign, reduce, transfer, deposit) has a new id.
 */
import type { Clock } from '../core/clock.js';
import { derivedId, type IdGenerator } from '../core/ids.js';
import type { BillLine } from './bill.js';
import { creditBack } from './credit-back.js';
import { earnedPointsMilli } from './earning.js';
import type { ProgramRepo } from './program.repo.js';
import { formatTimestamp, parseTimestamp } from '../core/time.js';

export type LedgerKind = 'collection' | 'redemption';

/** A point record as it is written (point_records). */
export type PointRecord = {
  id: string;
  customer_id: string;
  kind: LedgerKind;
  points_milli: number;
  point_type_id: string | null;
  partner_id: string | null;
  valid_to: string | null;
  purchase_id: string | null;
  linked_point_id: string | null;
  created_at: string;
  state: number;
};

/** A credit record as it is written (credit_records), in minor units. */
export type CreditRecord = {
  id: string;
  customer_id: string;
  kind: LedgerKind;
  amount_minor: number;
  purchase_id: string | null;
  linked_credit_id: string | null;
  /** Where credit given or taken by hand comes from; null on a purchase's records. */
  credit_type_id: string | null;
  partner_id: string | null;
  note: string | null;
  created_at: string;
  state: number;
};

/** Where credit given or taken by hand comes from. */
export interface CreditOrigin {
  credit_type_id: string;
  partner_id: string | null;
  note: string | null;
}

/** Where points given or taken by hand come from. */
export interface PointOrigin {
  point_type_id: string;
  partner_id: string | null;
}

/** What reversing a bill needs of it (src/features/checkout/original-bills.ts). */
export interface ReversibleBill {
  /** The customer the bill belongs to; null for none. */
  owner: string | null;
  points: { id: string; kind: LedgerKind; points_milli: number }[];
  credits: { id: string; customer_id: string; kind: LedgerKind; amount_minor: number }[];
}

/** The id of the credit record a purchase paid with: at most one. */
export function creditPaymentId(purchaseId: string): string {
  return derivedId(purchaseId, 'credit:payment');
}

/** The id of the redemption that paid a voucher's points cost: one per voucher, whichever node writes it. */
export function voucherCostId(voucherId: string): string {
  return derivedId(voucherId, 'points:voucher');
}

const opposite = (kind: LedgerKind): LedgerKind => (kind === 'collection' ? 'redemption' : 'collection');

export class LedgerRecords {
  constructor(
    private readonly program: ProgramRepo,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
    /** The chain's time zone (`time_zone`), whose days points expire at the end of. */
    private readonly timeZone: string,
  ) {}

  /** Points given by hand, valid for the program's point validity from now. */
  collect(customerId: string, milli: number, origin: PointOrigin): PointRecord {
    return { ...this.point(this.newId(), customerId, 'collection', milli, origin), valid_to: this.validTo() };
  }

  /** Points taken by hand. */
  redeem(customerId: string, milli: number, origin: PointOrigin): PointRecord {
    return this.point(this.newId(), customerId, 'redemption', milli, origin);
  }

  /** Points moved from one customer to another: a redemption and a collection, each linked to the other. */
  transfer(fromCustomer: string, toCustomer: string, milli: number, pointTypeId: string): [PointRecord, PointRecord] {
    const origin = { point_type_id: pointTypeId, partner_id: null };
    const out = this.redeem(fromCustomer, milli, origin);
    const into = this.collect(toCustomer, milli, origin);
    return [
      { ...out, linked_point_id: into.id },
      { ...into, linked_point_id: out.id },
    ];
  }

  /** A reward's points cost, paid when a voucher is made from it (none for a reward that costs none). */
  voucherCost(voucherId: string, customerId: string, milli: number): PointRecord[] {
    return milli > 0 ? [this.point(voucherCostId(voucherId), customerId, 'redemption', milli, { point_type_id: 'reward', partner_id: null })] : [];
  }

  /** Credit given by hand. */
  deposit(customerId: string, amountMinor: number, origin: CreditOrigin): CreditRecord {
    return { ...this.credit(this.newId(), customerId, 'collection', amountMinor, null), ...origin };
  }

  /** Credit taken by hand. */
  withdraw(customerId: string, amountMinor: number, origin: CreditOrigin): CreditRecord {
    return { ...this.credit(this.newId(), customerId, 'redemption', amountMinor, null), ...origin };
  }

  /** Credit moved from one customer to another: a redemption and a collection, each linked to the other. */
  transferCredit(fromCustomer: string, toCustomer: string, amountMinor: number, origin: CreditOrigin): [CreditRecord, CreditRecord] {
    const out = this.withdraw(fromCustomer, amountMinor, origin);
    const into = this.deposit(toCustomer, amountMinor, origin);
    return [
      { ...out, linked_credit_id: into.id },
      { ...into, linked_credit_id: out.id },
    ];
  }

  /** The points a purchase paid with. */
  paidWith(purchaseId: string, customerId: string, milli: number): PointRecord[] {
    return milli > 0 ? [this.ofPurchase(purchaseId, 'redeem', customerId, 'redemption', milli)] : [];
  }

  /** What a bill's items earn by the program's rules; a return's items take back what they earned. */
  earnedBy(purchaseId: string, customerId: string, lines: BillLine[]): PointRecord[] {
    const program = this.program.load();
    if (!program) return [];
    const earnedMilli = earnedPointsMilli(program.earning, lines);
    if (earnedMilli > 0) return [{ ...this.ofPurchase(purchaseId, 'earn', customerId, 'collection', earnedMilli), valid_to: this.validTo() }];
    return earnedMilli < 0 ? [this.ofPurchase(purchaseId, 'return', customerId, 'redemption', -earnedMilli)] : [];
  }

  /** The credit a purchase paid with. */
  creditPaidWith(purchaseId: string, customerId: string, amountMinor: number): CreditRecord[] {
    return amountMinor > 0 ? [this.credit(creditPaymentId(purchaseId), customerId, 'redemption', amountMinor, purchaseId)] : [];
  }

  /** Credit back on what a bill paid in money; a return's negative share takes credit back. */
  creditBackOn(purchaseId: string, customerId: string, paidMinor: number, lines: BillLine[]): CreditRecord[] {
    const amountMinor = creditBack(this.program.load()?.credit_back, paidMinor, lines);
    if (amountMinor > 0) return [this.credit(derivedId(purchaseId, 'credit:back'), customerId, 'collection', amountMinor, purchaseId)];
    return amountMinor < 0 ? [this.credit(derivedId(purchaseId, 'credit:return'), customerId, 'redemption', -amountMinor, purchaseId)] : [];
  }

  /**
   * A cancellation's records: the original's collections taken back and its redemptions given
   * back, points and credit, each linked to the record it reverses, with ids derived from the
   * cancelling purchase's — so store and hub, whichever makes them, make the same records.
   */
  reversals(cancellingId: string, original: ReversibleBill, createdAt: string): { points: PointRecord[]; credits: CreditRecord[] } {
    const owner = original.owner;
    const points = owner
      ? original.points.map((record) => ({
          ...this.ofPurchase(cancellingId, `reverse:${record.id}`, owner, opposite(record.kind), record.points_milli),
          linked_point_id: record.id,
          created_at: createdAt,
        }))
      : [];
    const credits = original.credits.map((record) => ({
      ...this.credit(
        derivedId(cancellingId, `credit:reverse:${record.id}`),
        record.customer_id,
        opposite(record.kind),
        record.amount_minor,
        cancellingId,
      ),
      linked_credit_id: record.id,
      created_at: createdAt,
    }));
    return { points, credits };
  }

  private ofPurchase(purchaseId: string, purpose: string, customerId: string, kind: LedgerKind, milli: number): PointRecord {
    return {
      ...this.point(derivedId(purchaseId, purpose), customerId, kind, milli, { point_type_id: 'purchase', partner_id: null }),
      purchase_id: purchaseId,
    };
  }

  private point(id: string, customerId: string, kind: LedgerKind, milli: number, origin: PointOrigin): PointRecord {
    return {
      id,
      customer_id: customerId,
      kind,
      points_milli: milli,
      point_type_id: origin.point_type_id,
      partner_id: origin.partner_id,
      valid_to: null,
      purchase_id: null,
      linked_point_id: null,
      created_at: new Date(this.clock()).toISOString(),
      state: 1,
    };
  }

  private credit(id: string, customerId: string, kind: LedgerKind, amountMinor: number, purchaseId: string | null): CreditRecord {
    return {
      id,
      customer_id: customerId,
      kind,
      amount_minor: amountMinor,
      purchase_id: purchaseId,
      linked_credit_id: null,
      credit_type_id: null,
      partner_id: null,
      note: null,
      created_at: new Date(this.clock()).toISOString(),
      state: 1,
    };
  }

  /**
   * When points collected now expire: at the end of the day (in the chain's time zone) the
   * program's point validity from now ends in, or never. A customer's points of one day share
   * an expiry, so the hub's published state holds a lot per day of points left, not one per
   * bill (src/loyalty/CONTEXT.md, src/decisions/0040-points-expire-end-of-day.md).
   */
  private validTo(): string | null {
    const days = this.program.load()?.point_validity_days;
    if (!days) return null;
    const lastDay = formatTimestamp(this.clock() + days * 86_400_000, this.timeZone).slice(0, 10);
    return new Date(parseTimestamp(`${lastDay} 23:59:59`, this.timeZone)! + 999).toISOString();
  }
}
