/**
 * Vouchers and the rewards they come from. A voucher's applied state is the fold of its
 * application facts (DESIGN §5): the first by HLC decides where and when it was applied; a
 * later one from another store is kept and listed as a conflict.
 */
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { Paging } from '../../core/paging.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import type { VoucherPresenter } from './voucher-presenter.js';
import type { VoucherRow, VouchersRepo } from './vouchers.repo.js';
import type { ApplyVoucher, VouchersQuery } from './vouchers.schemas.js';

/** What VouchersService is built from. */
export interface VouchersServiceOptions {
  repo: VouchersRepo;
  presenter: VoucherPresenter;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  timeZone: string;
  /** Whether the call is a store's the hub runs again: a voucher used again offline is a fact it takes, and the fold lists. */
  judgedAtTill: () => boolean;
  /**
   * Whether a voucher's use here must name its store: at a store with a hub, whose use the hub
   * runs again and checks against the stores the node serves (src/sync/hub/store-ids.ts).
   */
  usesNameTheirStore: boolean;
}

export class VouchersService {
  private readonly repo: VouchersRepo;
  private readonly presenter: VoucherPresenter;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly timeZone: string;
  private readonly judgedAtTill: () => boolean;
  private readonly usesNameTheirStore: boolean;

  constructor(options: VouchersServiceOptions) {
    const { repo, presenter, writes, newId, clock, timeZone, judgedAtTill, usesNameTheirStore } = options;
    this.repo = repo;
    this.presenter = presenter;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.timeZone = timeZone;
    this.judgedAtTill = judgedAtTill;
    this.usesNameTheirStore = usesNameTheirStore;
  }

  list(query: VouchersQuery, context: RequestContext) {
    const page = this.repo.vouchers(
      {
        customer_id: customerFilter(context, query.customer_id),
        code: query.code,
        store_id: query.store_id,
        validAt: query.is_valid === undefined ? undefined : { at: new Date(this.clock()).toISOString(), valid: query.is_valid },
        applied: query.is_applied,
      },
      query,
    );
    return { vouchers: page.items.map((row) => this.wire(row)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.existing(id, context);
    return this.wire(row);
  }

  apply(id: string, request: ApplyVoucher, context: RequestContext): void {
    const voucher = this.existing(id, context);
    if (voucher.applied_date !== null && !this.judgedAtTill()) throw invalidParam('voucher_id', 'voucher_already_used', id);
    if (request.store_id === undefined && this.usesNameTheirStore) {
      throw invalidParam('store_id', 'required', undefined, 'A store with a hub names the store a voucher is used at');
    }
    if (request.store_id !== undefined && !this.repo.hasStore(request.store_id)) throw invalidParam('store_id', 'not_found', request.store_id);
    const appliedAt = parseTimestamp(request.date_applied, this.timeZone);
    if (appliedAt === undefined) throw invalidParam('date_applied', 'invalid_value_format', request.date_applied);
    const application = {
      id: this.newId(),
      voucher_id: id,
      store_id: request.store_id ?? null,
      purchase_id: null,
      applied_date: new Date(appliedAt).toISOString(),
    };
    this.writes.write({ kind: 'vouchers.apply', payload: application }, (tx) => this.repo.insertApplication(tx, application));
  }

  rewards(paging: Paging) {
    const page = this.repo.rewards(paging);
    return { rewards: page.items.map((row) => this.presenter.reward(row)), total_items: page.total };
  }

  reward(id: string) {
    const row = this.repo.rewardById(id);
    if (!row) throw notFound('rewards', id);
    return this.presenter.reward(row);
  }

  private existing(id: string, context: RequestContext): VoucherRow {
    const row = this.repo.voucherById(id);
    if (!row) throw notFound('vouchers', id);
    assertOwnRecord(context, row.customer_id, 'voucher_id', id);
    return row;
  }

  private wire(row: VoucherRow) {
    return this.presenter.voucher(row);
  }
}
