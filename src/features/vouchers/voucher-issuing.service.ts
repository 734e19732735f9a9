/**
 * Vouchers made from rewards (POST /rewards/{reward_id}/actions/create-voucher). The reward's
 * points cost is redeemed from the customer's balance under the same offline limits as every
 * redemption, in the transaction that writes the voucher; the redemption's id derives from
 * the voucher's (src/loyalty/ledger-records.ts), so the voucher and its cost are one fact
 * pair wherever they travel. An automated reward applies itself and makes no voucher.
 */
import type { Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { customerFilter } from '../../http/customer-scope.js';
import type { Ledger } from '../../loyalty/ledger.js';
import { parseTimestamp } from '../../core/time.js';
import type { VouchersRepo } from './vouchers.repo.js';
import type { CreateVoucher, VoucherCreated } from './vouchers.schemas.js';
import { loyaltyColumns } from '../../loyalty/column-codecs.js';

/** A voucher's code when the caller gives none: the random part of its id, which no other voucher shares. */
const codeOf = (voucherId: string) => voucherId.slice(12).toUpperCase();

/** What VoucherIssuer is built from. */
export interface VoucherIssuerOptions {
  repo: VouchersRepo;
  ledger: Ledger;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  timeZone: string;
}

export class VoucherIssuer {
  private readonly repo: VouchersRepo;
  private readonly ledger: Ledger;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: VoucherIssuerOptions) {
    const { repo, ledger, writes, newId, clock, timeZone } = options;
    this.repo = repo;
    this.ledger = ledger;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  create(rewardId: string, request: CreateVoucher, context: RequestContext): VoucherCreated {
    const row = this.repo.rewardById(rewardId);
    if (!row) throw notFound('rewards', rewardId);
    const customerId = customerFilter(context, request.customer_id) ?? request.customer_id;
    if (!this.repo.hasCustomer(customerId)) throw invalidParam('customer_id', 'not_found', customerId);
    const reward = loyaltyColumns['rewards.details'](row.details);
    if (row.state !== 1 || !reward) throw invalidParam('reward_id', 'not_allowed_value', rewardId, 'The reward is not active');
    if (reward.is_automated)
      throw invalidParam('reward_id', 'not_allowed_value', rewardId, 'An automated reward applies itself and makes no voucher');
    const now = this.clock();
    const validFrom = this.dayBoundary(reward.valid_from, '00:00:00');
    const validTo = this.dayBoundary(reward.valid_to, '23:59:59');
    if (validTo !== null && validTo < new Date(now).toISOString())
      throw invalidParam('reward_id', 'expired', rewardId, `The reward was valid until ${reward.valid_to}`);
    if (request.code !== undefined && this.repo.voucherIdByCode(request.code) !== undefined)
      throw invalidParam('code', 'already_exists', request.code);
    this.ledger.policy.check(customerId, row.points_cost_milli, this.ledger.balances.balancesAt(customerId, now).pointsMilli, 'reward_id');
    const id = this.newId();
    const voucher = {
      id,
      customer_id: customerId,
      reward_id: rewardId,
      code: request.code ?? codeOf(id),
      value_minor: reward.discount.type === 'amount' ? reward.discount.value : 0,
      valid_from: validFrom,
      valid_to: validTo,
      reward_group: null,
      state: 1,
    };
    const cost = this.ledger.records.voucherCost(id, customerId, row.points_cost_milli);
    this.writes.write({ kind: 'vouchers.create', payload: { reward_id: rewardId, ...request } }, (tx) => {
      this.repo.insertVoucher(tx, voucher);
      for (const record of cost) this.ledger.points.insert(tx, record);
    });
    return { voucher_id: id };
  }

  /** The stored instant a reward's validity day starts or ends at, in the configured zone. */
  private dayBoundary(day: string | undefined, time: string): string | null {
    if (day === undefined) return null;
    const ms = parseTimestamp(`${day} ${time}`, this.timeZone);
    return ms === undefined ? null : new Date(ms).toISOString();
  }
}
