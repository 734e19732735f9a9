import { z } from 'zod';
import { Paging } from '../../core/paging.js';
import { Id, LookupState, QueryBoolean, Text } from '../../core/schemas.js';
import { Money } from '../../money.js';

const LocalTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be YYYY-MM-DD HH:MM:SS');

export const VouchersQuery = Paging.extend({
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

export interface VoucherRow {
  id: string;
  customer_id: string | null;
  reward_id: string | null;
  code: string;
  value_minor: number;
  valid_from: string | null;
  valid_to: string | null;
  reward_group: string | null;
  state: number;
  last_change: string;
  /** The first application by HLC, if any (the fold of voucher_applications). */
  applied_store_id: string | null;
  applied_date: string | null;
}

export interface RewardRow {
  id: string;
  code: string | null;
  name: string;
  priority: number | null;
  points_cost_milli: number;
  is_automated: number;
  details: string;
  state: number;
  last_change: string;
}
