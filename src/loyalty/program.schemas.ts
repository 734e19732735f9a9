/**
 * The loyalty program as data (DESIGN §6), loaded with `loyaltyd program load FILE` on the
 * hub and replicated to stores. Amounts are written as decimals in the file and held as
 * integers: money in minor units, points in thousandths, multipliers in percent, the
 * credit-back share in basis points.
 */
import { z } from 'zod';
import { Id, Text } from '../core/schemas.js';
import { Money, Points } from '../core/money.js';

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'must be HH:MM:SS');
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const EarningRule = z.discriminatedUnion('kind', [
  /** `points` for every whole `per_amount` paid on items that earn (not loyalty_off). */
  z.object({ kind: z.literal('per_currency_unit'), per_amount: Money, points: Points }),
  /** Fixed points for each unit of a product bought. */
  z.object({ kind: z.literal('per_product'), product_id: Id, points_per_unit: Points }),
  /** Fixed points for each unit bought from a product group. */
  z.object({ kind: z.literal('per_product_group'), product_group_id: Id, points_per_unit: Points }),
  /** Multiplies what the items of a product group earn by amount (200 = double). */
  z.object({ kind: z.literal('group_multiplier'), product_group_id: Id, percent: z.number().int().min(0).max(10_000) }),
]);
export type EarningRule = z.infer<typeof EarningRule>;

export const RewardCondition = z
  .object({
    product_ids: z.array(Id).default([]),
    product_group_ids: z.array(Id).default([]),
    brand_ids: z.array(Id).default([]),
    /** Units of matching items the bill must hold for each use of the reward. */
    min_count: z.number().int().min(1).default(1),
  })
  .refine((condition) => condition.product_ids.length + condition.product_group_ids.length + condition.brand_ids.length > 0, {
    message: 'a condition names at least one product, product group or brand',
  });
export type RewardCondition = z.infer<typeof RewardCondition>;

export const Discount = z.discriminatedUnion('type', [
  /** Percent off the matching items (or the whole bill when the reward has no condition). */
  z.object({ type: z.literal('percent'), value: z.number().int().min(1).max(100) }),
  /** A money amount off, once per use. */
  z.object({ type: z.literal('amount'), value: Money }),
  /** The matching item's unit price becomes this, once per use. */
  z.object({ type: z.literal('final_price'), value: Money }),
]);
export type Discount = z.infer<typeof Discount>;

export const RewardDefinition = z.object({
  id: Id,
  code: Text,
  name: Text,
  description: z.string().default(''),
  image: z.string().default(''),
  priority: z.number().int().min(1).max(9),
  points_cost: Points.default(0),
  valid_from: Day.optional(),
  valid_to: Day.optional(),
  /** Time-of-day window in the store's time zone; both or neither. */
  time_from: ClockTime.optional(),
  time_to: ClockTime.optional(),
  /** Stores where the reward applies; empty means every store. */
  store_ids: z.array(Id).default([]),
  conditions: z.array(RewardCondition).default([]),
  discount: Discount,
  is_automated: z.boolean().default(false),
  max_uses_per_bill: z.number().int().min(1).default(1),
});
export type RewardDefinition = z.infer<typeof RewardDefinition>;

/** Credit given back on purchases (src/loyalty/credit-back.ts). */
export const CreditBack = z.object({
  /** The share of what a bill paid in money that comes back as credit, in basis points (250 = 2.5 %). */
  percent_bp: z.number().int().min(0).max(10_000),
});
export type CreditBack = z.infer<typeof CreditBack>;

export const Program = z.object({
  currency_id: Text,
  /** What one point is worth when it pays, in money. */
  point_value: Money,
  /** Days a collected point stays valid; none means points never expire. */
  point_validity_days: z.number().int().positive().optional(),
  /** Credit back on purchases paid with payment type S; none means purchases give no credit. */
  credit_back: CreditBack.optional(),
  earning: z.array(EarningRule).default([]),
  rewards: z.array(RewardDefinition).default([]),
});
export type Program = z.infer<typeof Program>;
