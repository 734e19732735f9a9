import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, LookupState, QueryBoolean, Text, StoreTimestamp } from '../../core/schemas.js';
import { PropertyRecordAnswer } from '../property-record.schema.js';
import { StoreAnswer } from '../stores/stores.schemas.js';
import { Money } from '../../core/money.js';

const LocalTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be YYYY-MM-DD HH:MM:SS');

/** The fields this list sorts by: those an index keeps in order. */
export const VOUCHER_SORT_FIELDS = ['voucher_id', 'customer_id', 'code'] as const;
export const VouchersQuery = SortedPaging(VOUCHER_SORT_FIELDS).extend({
  customer_id: Text.optional(),
  code: Text.optional(),
  store_id: Text.optional(),
  is_valid: QueryBoolean.optional(),
  is_applied: QueryBoolean.optional(),
});
export type VouchersQuery = z.infer<typeof VouchersQuery>;

export const VoucherPath = z.object({ voucher_id: Text });

export const ApplyVoucher = z.object({ store_id: z.string().optional(), date_applied: LocalTimestamp });
export type ApplyVoucher = z.infer<typeof ApplyVoucher>;

/**
 * A voucher a chain brings from its previous system (`loyaltyd import vouchers`), as the
 * Voucher structure gives it: times as `YYYY-MM-DD HH:MM:SS` in the configured zone or ISO
 * 8601; one already used names when (`applied_date`) and, if known, where (`store_id`).
 */
export const ImportedVoucher = z.object({
  voucher_id: Id.optional(),
  customer_id: Id.nullable().optional(),
  reward_id: Id.nullable().optional(),
  code: Text,
  value: Money.optional(),
  valid_from: Text.nullable().optional(),
  valid_to: Text.nullable().optional(),
  reward_group: Text.nullable().optional(),
  applied_date: Text.nullable().optional(),
  store_id: Id.nullable().optional(),
  state: LookupState.optional(),
});
export type ImportedVoucher = z.infer<typeof ImportedVoucher>;

export const RewardPath = z.object({ reward_id: Text });

/** A voucher made from a reward for a customer; the code is made from its id when not given. */
export const CreateVoucher = z.object({ customer_id: Id, code: Text.optional() });
export type CreateVoucher = z.infer<typeof CreateVoucher>;
export const VoucherCreated = z.object({ voucher_id: z.string() });
export type VoucherCreated = z.infer<typeof VoucherCreated>;

/**
 * Reward as interface.md shows it inside a Voucher (and GET /rewards answers it). Its
 * `store_list` holds Store records, as the 2021 OpenAPI file types it.
 */
export const RewardAnswer = z.object({
  reward_id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  note: z.string(),
  subtitle: z.string(),
  points_cost: z.number(),
  valid_time_from: z.string().nullable().meta({ description: 'Time of day, HH:MM:SS' }),
  valid_time_to: z.string().nullable().meta({ description: 'Time of day, HH:MM:SS' }),
  reward_group: z.number().int(),
  store_list: z.array(StoreAnswer),
  additional_properties: z.array(PropertyRecordAnswer),
  priority: z.number().int().nullable(),
  image_urls: z.array(z.string()),
  has_product_condition: z.boolean(),
  has_group_condition: z.boolean(),
  has_brand_condition: z.boolean(),
  is_automated: z.boolean(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type RewardAnswer = z.infer<typeof RewardAnswer>;
export const RewardsAnswer = Collection('rewards', RewardAnswer);
export type RewardsAnswer = z.infer<typeof RewardsAnswer>;

export const VoucherAnswer = z.object({
  voucher_id: z.string(),
  customer_id: z.string().nullable(),
  store_id: z.string().nullable().meta({ description: 'The store it was applied in' }),
  code: z.string(),
  value: z.number(),
  applied_date: StoreTimestamp.nullable(),
  valid_from: StoreTimestamp.nullable(),
  valid_to: StoreTimestamp.nullable(),
  reward_group: z.string().nullable(),
  reward: RewardAnswer.nullable(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type VoucherAnswer = z.infer<typeof VoucherAnswer>;
export const VouchersAnswer = Collection('vouchers', VoucherAnswer);
export type VouchersAnswer = z.infer<typeof VouchersAnswer>;

/** The fields this list sorts by: those an index keeps in order. */
export const REWARD_SORT_FIELDS = ['reward_id', 'code', 'priority'] as const;
export const RewardQuery = SortedPaging(REWARD_SORT_FIELDS);
export type RewardQuery = z.infer<typeof RewardQuery>;
