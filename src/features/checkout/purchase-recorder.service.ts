/**
 * send-purchase and assign-customer (DESIGN §6): the closed bill becomes a purchase with
 * its items; the vouchers it names are used (src/features/checkout/voucher-uses.ts), points
 * and credit paid with are redeemed, and points the rules give and the credit back are
 * earned, as point and credit records whose ids derive from the purchase id — so whichever
 * node earns a purchase's points, and however often, there is one record. A cancellation
 * takes back what the original earned and gives back what it spent, vouchers too; a return
 * takes back what its items earned, even into a negative balance, which is then listed.
 */
import type { Clock } from '../../core/clock.js';
import type { WriteTransaction, WritePath, WrittenRow } from '../../db/write-path.js';
import { billAlreadySent, invalidParam } from '../../core/errors.js';
import type { BillLine } from '../../loyalty/bill.js';
import type { Ledger } from '../../loyalty/ledger.js';
import type { CreditRecord, PointRecord } from '../../loyalty/ledger-records.js';
import { priceOfPoints } from '../../loyalty/pricing.js';
import type { ProgramRepo } from '../../loyalty/program.repo.js';
import type { FoldConflicts } from '../../sync/fold-conflicts.js';
import { derivedId, type IdGenerator } from '../../core/ids.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { BillReader } from './bill-reader.js';
import type { CheckoutRepo } from './checkout.repo.js';
import type { AssignCustomer, SendPurchase, SendPurchaseAnswer } from './checkout.schemas.js';
import type { OriginalBill, OriginalBills, RemoteOriginals } from './original-bills.js';
import { voucherApplications, voucherReleases } from './voucher-uses.js';
import { featureColumns, type StoredBill } from '../column-codecs.js';

type FinalBill = SendPurchase['bill'];

/** What a bill pays with besides money: points in thousandths, credit in minor units. */
interface PaidWith {
  pointsMilli: number;
  creditMinor: number;
}

/** Credit back is earned on final bills of payment type S, the one in use, or none given. */
function earnsCreditBack(paymentType: string | undefined): boolean {
  return paymentType === undefined || paymentType === 'S';
}

/** What PurchaseRecorder is built from. */
export interface PurchaseRecorderOptions {
  repo: CheckoutRepo;
  bills: BillReader;
  customers: CustomersRepo;
  ledger: Ledger;
  program: ProgramRepo;
  conflicts: FoldConflicts;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  originals: OriginalBills;
  /** At a store with a hub: where a bill sold at another store is asked for. */
  remote: RemoteOriginals | undefined;
}

export class PurchaseRecorder {
  private readonly repo: CheckoutRepo;
  private readonly bills: BillReader;
  private readonly customers: CustomersRepo;
  private readonly ledger: Ledger;
  private readonly program: ProgramRepo;
  private readonly conflicts: FoldConflicts;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly originals: OriginalBills;
  private readonly remote: RemoteOriginals | undefined;

  constructor(options: PurchaseRecorderOptions) {
    const { repo, bills, customers, ledger, program, conflicts, writes, newId, clock, originals, remote } = options;
    this.repo = repo;
    this.bills = bills;
    this.customers = customers;
    this.ledger = ledger;
    this.program = program;
    this.conflicts = conflicts;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.originals = originals;
    this.remote = remote;
  }

  /**
   * send(), after asking the hub for the original a cancellation names: the hub knows whether
   * another store cancelled it already, and holds the bills sold elsewhere. A bill the hub
   * does not have yet (sold here, not pushed) is read here. When the hub does not answer, a
   * bill held here is cancelled as this store knows it, and one it does not hold is recorded
   * without its original, for the hub to complete (src/features/checkout/cancellations.ts).
   */
  async sendNamingOriginal(request: SendPurchase): Promise<SendPurchaseAnswer> {
    const { bill } = request;
    if (!bill.canceled || !bill.bill_number || !this.remote) return this.send(request);
    const remote = await this.remote(request.store_id, bill.bill_number);
    if (remote !== undefined && remote !== 'unreachable') return this.send(request, remote);
    if (this.originals.local(request.store_id, bill.bill_number)) return this.send(request);
    if (remote === undefined) throw invalidParam('bill.bill_number', 'not_found', bill.bill_number);
    return this.send(request, 'left-to-the-hub');
  }

  send(request: SendPurchase, named?: OriginalBill | 'left-to-the-hub'): SendPurchaseAnswer {
    const { bill: finalBill } = request;
    const existing = this.repo.purchaseByStoreBill(request.store_id, finalBill.bill_id);
    if (existing) throw billAlreadySent({ name: 'bill.bill_id', value: finalBill.bill_id, message: sentAgain(finalBill.canceled) }, existing.id);
    const customerId = this.customerOf(request.customer_id, request.card_number);
    const { bill, paidAt } = this.bills.read(request.store_id, finalBill);
    const original = finalBill.canceled && named !== 'left-to-the-hub' ? this.originalOf(request.store_id, finalBill.bill_number, named) : undefined;
    const paid = this.paidWith(finalBill, customerId);
    const purchaseId = this.newId();
    const purchase = purchaseRow(request, { id: purchaseId, customerId, paidAt, lines: bill.lines, cancelsPurchaseId: original?.purchase.id });
    // A cancellation gives back the original's vouchers; the codes it repeats use none.
    const codes = finalBill.canceled ? [] : finalBill.payment_recap.vouchers.map((voucher) => voucher.code);
    const applications = voucherApplications(this.repo, purchaseId, customerId, request.store_id, paidAt, codes, this.ledger.policy.judgedAtTill());
    const releases = original ? voucherReleases(purchaseId, original.vouchers) : [];
    const { points, credits } = this.recordsOf(purchaseId, customerId, finalBill, bill.lines, paid, original);
    this.writes.write({ kind: 'purchases.send', payload: request }, (tx) => {
      this.insertPurchase(tx, purchase, finalBill.bill_items, bill.lines);
      for (const application of applications) this.repo.insert(tx, 'voucher_applications', application);
      for (const release of releases) this.repo.insert(tx, 'voucher_releases', release);
      this.insertRecords(tx, points, credits);
    });
    return { purchase_id: purchaseId };
  }

  /**
   * The points and credit a bill pays with, each allowed by the customer's balance unless the
   * till judged it (a store's bill the hub runs again). A cancellation is the bill sent again
   * as it was (DESIGN §6): the points and credit its recap names were paid by the original,
   * which the reversals give back; nothing is paid again.
   */
  private paidWith(finalBill: FinalBill, customerId: string | undefined): PaidWith {
    if (finalBill.canceled) return { pointsMilli: 0, creditMinor: 0 };
    const { credit_points: pointsMilli, amount_for_credit: creditMinor } = finalBill.payment_recap;
    if (pointsMilli > 0 && !customerId) throw invalidParam('card_number', 'required', undefined, 'Paying with points needs the customer');
    if (creditMinor > 0 && !customerId) throw invalidParam('card_number', 'required', undefined, 'Paying with credit needs the customer');
    if (customerId && (pointsMilli > 0 || creditMinor > 0) && !this.ledger.policy.judgedAtTill()) {
      // Read only when the bill pays with points or credit: most bills do not.
      const balances = this.ledger.balances.balancesAt(customerId, this.clock());
      if (pointsMilli > 0) this.ledger.policy.check(customerId, pointsMilli, balances.pointsMilli, 'bill.payment_recap.credit_points');
      if (creditMinor > 0) this.ledger.policy.checkCredit(creditMinor, balances.creditMinor, 'bill.payment_recap.amount_for_credit');
    }
    return { pointsMilli, creditMinor };
  }

  /** The purchase's point and credit records: what it paid with and earned, then the original's reversed when it cancels one. */
  private recordsOf(
    purchaseId: string,
    customerId: string | undefined,
    finalBill: FinalBill,
    lines: BillLine[],
    paid: PaidWith,
    original: OriginalBill | undefined,
  ): { points: PointRecord[]; credits: CreditRecord[] } {
    const { records } = this.ledger;
    const points: PointRecord[] = [];
    const credits: CreditRecord[] = [];
    if (customerId) {
      points.push(...records.paidWith(purchaseId, customerId, paid.pointsMilli));
      if (!finalBill.canceled) points.push(...records.earnedBy(purchaseId, customerId, lines));
      credits.push(...records.creditPaidWith(purchaseId, customerId, paid.creditMinor));
      if (!finalBill.canceled && earnsCreditBack(finalBill.payment_type)) {
        // Paid in money: the final bill's total, which carries the discounts the till gave,
        // less the points and the credit it was paid with.
        const pointsMinor = priceOfPoints(Math.max(0, paid.pointsMilli), this.program.load()?.point_value ?? 0);
        credits.push(...records.creditBackOn(purchaseId, customerId, finalBill.total_price - pointsMinor - paid.creditMinor, lines));
      }
    }
    if (original) {
      const reversals = records.reversals(purchaseId, original, new Date(this.clock()).toISOString());
      points.push(...reversals.points);
      credits.push(...reversals.credits);
    }
    return { points, credits };
  }

  private insertPurchase(tx: WriteTransaction, purchase: WrittenRow<'purchases'>, items: FinalBill['bill_items'], lines: BillLine[]): void {
    this.repo.insert(tx, 'purchases', purchase);
    items.forEach((item, index) => {
      this.repo.insert(tx, 'purchase_items', {
        id: derivedId(purchase.id, `item:${index}`),
        purchase_id: purchase.id,
        product_id: lines[index]!.product_id,
        external_id: item.plu_ids[0]?.code ?? null,
        purchase_item_type_id: item.purchase_item_type_id ?? null,
        price_minor: item.paid_amount,
        amount_milli: item.quantity,
        vat_rate: item.vat_rate ?? null,
      });
    });
  }

  assign(request: AssignCustomer): void {
    const purchase = this.repo.purchaseByStoreBill(request.store_id, request.external_purchase_id);
    if (!purchase) throw invalidParam('external_purchase_id', 'not_found', request.external_purchase_id);
    const customerId = this.customerOf(request.customer_id, request.card_number)!;
    const current = this.repo.assignedCustomer(purchase);
    if (current === customerId) return;
    if (current)
      throw invalidParam(
        'external_purchase_id',
        'relation_already_exists',
        request.external_purchase_id,
        'The purchase already belongs to a customer',
      );
    const stored = featureColumns['purchases.bill'](purchase.bill);
    const earned = purchase.canceled ? [] : this.ledger.records.earnedBy(purchase.id, customerId, stored.lines);
    // A bill without a customer was paid with neither points nor credit: all of it in money.
    const creditBack =
      purchase.canceled || !earnsCreditBack(stored.payment_type)
        ? []
        : this.ledger.records.creditBackOn(purchase.id, customerId, purchase.total_price_minor, stored.lines);
    this.writes.write({ kind: 'purchases.assign-customer', payload: request }, (tx) => {
      this.repo.insert(tx, 'purchase_assignments', { id: derivedId(purchase.id, 'assignment'), purchase_id: purchase.id, customer_id: customerId });
      this.insertRecords(tx, earned, creditBack);
    });
  }

  private insertRecords(tx: WriteTransaction, points: PointRecord[], credits: CreditRecord[]): void {
    for (const record of points) this.ledger.points.insert(tx, record);
    for (const record of credits) this.ledger.credits.insert(tx, record);
    // A store's bill the hub runs again is checked with the rest of its push (src/sync/hub/hub-commands.ts).
    if (!this.ledger.policy.judgedAtTill()) this.conflicts.checkRecords(points, credits);
  }

  private customerOf(customerId: string | undefined, cardNumber: string | undefined): string | undefined {
    if (customerId !== undefined) {
      if (!this.customers.credentialsById(customerId)) throw invalidParam('customer_id', 'not_found', customerId);
      return customerId;
    }
    if (cardNumber === undefined) return undefined;
    const byCard = this.customers.customerIdByCardNumber(cardNumber);
    if (byCard === undefined) throw invalidParam('card_number', 'not_found', cardNumber);
    return byCard;
  }

  private originalOf(storeId: string, billNumber: string | undefined, named: OriginalBill | undefined): OriginalBill {
    if (!billNumber) throw invalidParam('bill.bill_number', 'required', undefined, 'A cancellation names the original bill_number');
    const original = named ?? this.originals.local(storeId, billNumber);
    if (!original) throw invalidParam('bill.bill_number', 'not_found', billNumber);
    if (original.cancellation) {
      throw billAlreadySent(
        { name: 'bill.bill_number', value: billNumber, message: 'The bill this bill_number names is cancelled already' },
        original.cancellation,
      );
    }
    return original;
  }
}

/** Why a bill_id sent again is refused; a till that sends it again as a cancellation is told how to cancel. */
function sentAgain(canceled: boolean): string {
  if (!canceled) return 'This bill was already sent';
  return "This bill_id was already sent; a cancellation is a new bill, with its own bill_id and the original's bill_number";
}

/** The purchase row of a final bill. */
function purchaseRow(
  request: SendPurchase,
  sale: { id: string; customerId: string | undefined; paidAt: number; lines: BillLine[]; cancelsPurchaseId: string | undefined },
): WrittenRow<'purchases'> {
  const { bill: finalBill } = request;
  return {
    id: sale.id,
    customer_id: sale.customerId ?? null,
    store_id: request.store_id,
    external_purchase_id: finalBill.bill_id,
    bill_number: finalBill.bill_number ?? null,
    payment_time: new Date(sale.paidAt).toISOString(),
    type_id: finalBill.purchase_type_id ?? null,
    total_price_minor: finalBill.total_price,
    currency_id: finalBill.currency_id ?? null,
    card_number: request.card_number ?? null,
    cashdesk_number: request.cashdesk_number,
    canceled: finalBill.canceled ? 1 : 0,
    cancels_purchase_id: sale.cancelsPurchaseId ?? null,
    bill: JSON.stringify({ lines: sale.lines, payment_type: finalBill.payment_type } satisfies StoredBill),
  };
}
