import { fromMilli, fromMinor } from '../../core/money.js';
import { formatOptionalTimestamp, formatTimestamp } from '../../core/time.js';
import type { StoreAnswer } from '../stores/stores.schemas.js';
import type { RewardRow, VoucherRow } from './vouchers.repo.js';
import type { RewardAnswer, VoucherAnswer } from './vouchers.schemas.js';
import { loyaltyColumns } from '../../loyalty/column-codecs.js';

/**
 * Reward as interface.md shows it inside a Voucher (and GET /rewards answers it). Its
 * `store_list` holds Store records, as the 2021 OpenAPI file types it; a store the node does not
 * hold (yet) is left out rather than shown as a bare id.
 */
export function toReward(row: RewardRow, storeOf: (id: string) => StoreAnswer | undefined, timeZone: string): RewardAnswer {
  const definition = loyaltyColumns['rewards.details'](row.details);
  const conditions = definition?.conditions ?? [];
  return {
    reward_id: row.id,
    code: row.code,
    name: row.name,
    note: definition?.description ?? '',
    subtitle: '',
    points_cost: fromMilli(row.points_cost_milli),
    valid_time_from: definition?.time_from ?? null,
    valid_time_to: definition?.time_to ?? null,
    reward_group: 0,
    store_list: (definition?.store_ids ?? []).flatMap((id) => storeOf(id) ?? []),
    additional_properties: [],
    priority: row.priority,
    image_urls: definition?.image ? [definition.image] : [],
    has_product_condition: conditions.some((condition) => condition.product_ids.length > 0),
    has_group_condition: conditions.some((condition) => condition.product_group_ids.length > 0),
    has_brand_condition: conditions.some((condition) => condition.brand_ids.length > 0),
    is_automated: row.is_automated === 1,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}

export function toVoucher(row: VoucherRow, reward: RewardAnswer | undefined, timeZone: string): VoucherAnswer {
  return {
    voucher_id: row.id,
    customer_id: row.customer_id,
    store_id: row.applied_store_id,
    code: row.code,
    value: fromMinor(row.value_minor),
    applied_date: formatOptionalTimestamp(row.applied_date, timeZone),
    valid_from: formatOptionalTimestamp(row.valid_from, timeZone),
    valid_to: formatOptionalTimestamp(row.valid_to, timeZone),
    reward_group: row.reward_group,
    reward: reward ?? null,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
