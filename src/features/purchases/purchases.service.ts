/** Purchase reads: the list, one purchase, its items, points and vouchers, and its summary. */
import type { Clock } from '../../core/clock.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { Ledger } from '../../loyalty/ledger.js';
import { creditPaymentId, voucherCostId } from '../../loyalty/ledger-records.js';
import { fromMilli, fromMinor } from '../../core/money.js';
import { parseTimestamp } from '../../core/time.js';
import { toPoint } from '../points/points.mappers.js';
import type { VoucherPresenter } from '../vouchers/voucher-presenter.js';
import type { VouchersRepo } from '../vouchers/vouchers.repo.js';
import { toPurchase, toPurchaseItem } from './purchases.mappers.js';
import type { PurchaseRow, PurchasesRepo } from './purchases.repo.js';
import type { PaymentSummaryAnswer, PurchasesQuery } from './purchases.schemas.js';

/** What PurchasesService is built from. */
export interface PurchasesServiceOptions {
  repo: PurchasesRepo;
  ledger: Ledger;
  vouchers: VouchersRepo;
  presenter: VoucherPresenter;
  clock: Clock;
  timeZone: string;
}

export class PurchasesService {
  private readonly repo: PurchasesRepo;
  private readonly ledger: Ledger;
  private readonly vouchers: VouchersRepo;
  private readonly presenter: VoucherPresenter;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: PurchasesServiceOptions) {
    const { repo, ledger, vouchers, presenter, clock, timeZone } = options;
    this.repo = repo;
    this.ledger = ledger;
    this.vouchers = vouchers;
    this.presenter = presenter;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  list(query: PurchasesQuery, context: RequestContext) {
    const page = this.repo.page(
      {
        store_id: query.store_id,
        customer_id: customerFilter(context, query.customer_id),
        type_id: query.type_id,
        paid_from: this.instant(query.payment_time_from, 'payment_time_from'),
        paid_to: this.instant(query.payment_time_to, 'payment_time_to'),
      },
      query,
    );
    const purchases = page.items.map((row) =>
      toPurchase(row, query.purchase_items_extension ? this.repo.itemsOf(row.id).map(toPurchaseItem) : null, this.timeZone),
    );
    return { purchases, total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    return toPurchase(this.existing(id, context), null, this.timeZone);
  }

  items(id: string, context: RequestContext) {
    const items = this.repo.itemsOf(this.existing(id, context).id).map(toPurchaseItem);
    return { purchase_items: items, total_items: items.length };
  }

  pointRecords(id: string, context: RequestContext) {
    const purchase = this.existing(id, context);
    const records = this.repo.pointRecordIdsOf(purchase.id).map((recordId) => this.ledger.points.byId(recordId)!);
    const left = this.ledger.balances.pointsLeftMilliOn(records, this.clock());
    const points = records.map((record, index) => toPoint(record, left[index]!, this.timeZone));
    return { points, total_items: points.length };
  }

  voucherList(id: string, context: RequestContext) {
    const vouchers = this.usedVouchers(this.existing(id, context).id);
    return { vouchers, total_items: vouchers.length };
  }

  /** GET /points/{id}/purchases: the purchase a point record came from, if any. */
  ofPointRecord(pointId: string, context: RequestContext) {
    const record = this.ledger.points.byId(pointId);
    if (!record) throw notFound('points', pointId);
    assertOwnRecord(context, record.customer_id, 'point_id', pointId);
    const purchase = record.purchase_id ? this.repo.byId(record.purchase_id) : undefined;
    const purchases = purchase ? [toPurchase(purchase, null, this.timeZone)] : [];
    return { purchases, total_items: purchases.length };
  }

  /** What the purchase earned and spent, from the facts linked to it. */
  paymentSummary(id: string, context: RequestContext): PaymentSummaryAnswer {
    const purchase = this.existing(id, context);
    const records = this.repo.pointRecordIdsOf(purchase.id).map((recordId) => this.ledger.points.byId(recordId)!);
    const sum = (kind: 'collection' | 'redemption') =>
      records.filter((record) => record.kind === kind).reduce((total, record) => total + record.points_milli, 0);
    const used = sum('redemption');
    const voucherIds = this.repo.voucherIdsOf(purchase.id);
    // The points a used voucher cost were redeemed when it was made from its reward.
    const inVouchers = voucherIds.reduce((total, voucherId) => total + (this.ledger.points.byId(voucherCostId(voucherId))?.points_milli ?? 0), 0);
    return {
      earned_points: fromMilli(sum('collection')),
      used_credits: fromMinor(this.ledger.credits.byId(creditPaymentId(purchase.id))?.amount_minor ?? 0),
      used_points: fromMilli(used),
      used_points_total: fromMilli(used + inVouchers),
      used_vouchers: this.presentVouchers(voucherIds),
    };
  }

  private usedVouchers(purchaseId: string) {
    return this.presentVouchers(this.repo.voucherIdsOf(purchaseId));
  }

  private presentVouchers(voucherIds: string[]) {
    return voucherIds.flatMap((voucherId) => {
      const voucher = this.vouchers.voucherById(voucherId);
      return voucher ? [this.presenter.voucher(voucher)] : [];
    });
  }

  private existing(id: string, context: RequestContext): PurchaseRow {
    const row = this.repo.byId(id);
    if (!row) throw notFound('purchases', id);
    assertOwnRecord(context, row.customer_id, 'purchase_id', id);
    return row;
  }

  private instant(text: string | undefined, field: string): string | undefined {
    if (text === undefined) return undefined;
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(field, 'invalid_value_format', text);
    return new Date(ms).toISOString();
  }
}
