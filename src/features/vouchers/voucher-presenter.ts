import { toStore } from '../stores/stores.mappers.js';
import type { StoresRepo } from '../stores/stores.repo.js';
import { toReward, toVoucher } from './vouchers.mappers.js';
import type { RewardRow, VoucherRow, VouchersRepo } from './vouchers.repo.js';

/** Renders rewards and vouchers for every feature that answers them, with a reward's stores as Store records. */
export class VoucherPresenter {
  constructor(
    private readonly vouchers: VouchersRepo,
    private readonly stores: StoresRepo,
    private readonly timeZone: string,
  ) {}

  reward(row: RewardRow) {
    return toReward(row, (id) => this.store(id), this.timeZone);
  }

  voucher(row: VoucherRow) {
    const reward = row.reward_id ? this.vouchers.rewardById(row.reward_id) : undefined;
    return toVoucher(row, reward && this.reward(reward), this.timeZone);
  }

  private store(id: string) {
    const row = this.stores.storeById(id);
    return row && toStore(row, this.timeZone);
  }
}
