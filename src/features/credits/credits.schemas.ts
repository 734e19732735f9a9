/** Request structures of the credit resource (today's spec: GET /credits, POST /credits/actions/…). */
import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, Text } from '../../core/schemas.js';
import { Money } from '../../core/money.js';

const PositiveMoney = Money.refine((minor) => minor > 0, { message: 'must be more than 0', params: { reason: 'not_allowed_value' } });

export const DepositCredits = z.object({
  amount: PositiveMoney,
  customer_id: Id,
  partner_id: z.string().optional(),
  credit_type_id: z.string().optional(),
  currency_id: z.string().optional(),
  note: z.string().optional(),
});
export type DepositCredits = z.infer<typeof DepositCredits>;

export const ReduceCredits = DepositCredits;
export type ReduceCredits = DepositCredits;

export const TransferCredits = z.object({
  original_customer_id: Id,
  new_customer_id: Id,
  amount: PositiveMoney,
  credit_type_id: z.string().optional(),
  currency_id: z.string().optional(),
  note: z.string().optional(),
});
export type TransferCredits = z.infer<typeof TransferCredits>;

/** The fields this list sorts by: those an index keeps in order. */
export const CREDIT_SORT_FIELDS = ['credit_id'] as const;
export const CreditsQuery = SortedPaging(CREDIT_SORT_FIELDS).extend({
  customer_id: Text.optional(),
  credit_type_id: Text.optional(),
  /** `YYYY-MM-DD HH:MM:SS` or ISO 8601, in the configured zone. */
  create_credit_time_from: Text.optional(),
  create_credit_time_to: Text.optional(),
  note: Text.optional(),
});
export type CreditsQuery = z.infer<typeof CreditsQuery>;

export const CreditPath = z.object({ credit_id: Text });

/** A credit record as today's spec shows it (src/features/credits/credits.mappers.ts). */
export const CreditAnswer = z.object({
  credit_id: z.string(),
  customer_id: z.string(),
  assigned_credits: z.number(),
  available_credits: z.number(),
  credit_type_id: z.string(),
  partner_id: z.string(),
  valid_to: z.null(),
  currency_id: z.string(),
  state: z.number().int(),
  note: z.string(),
});
export type CreditAnswer = z.infer<typeof CreditAnswer>;
export const CreditsAnswer = Collection('credits', CreditAnswer);
export type CreditsAnswer = z.infer<typeof CreditsAnswer>;
export const CreditCreated = z.object({ credit_id: z.string() });
export type CreditCreated = z.infer<typeof CreditCreated>;
