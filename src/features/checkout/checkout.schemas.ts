/** Request structures of the purchase actions (interface.md Bill, FinalBill, BillItem). */
import { z } from 'zod';
import { Id, Text } from '../../core/schemas.js';
import { Money, Points } from '../../core/money.js';

/** Ids the POS may send as numbers or strings (interface.md: "string or integer"). */
const LooseId = z.union([z.string().trim().min(1), z.number().int()]).transform(String);

export const PluId = z.object({ list_code: z.string().trim().min(1).default('GLOBAL'), code: Text });

export const BillItem = z.object({
  plu_ids: z.array(PluId).default([]),
  plu_name: z.string().optional(),
  category_plu_id: z.string().optional(),
  vat_rate: z.number().optional(),
  /** Negative for a returned item. Read in thousandths (weighed goods). */
  quantity: Points,
  paid_amount: Money,
  price: Money,
  bill_item_id: LooseId,
  loyalty_off: z.boolean().default(false),
  purchase_item_type_id: z.string().optional(),
  customer_id: z.string().optional(),
});
export type BillItem = z.infer<typeof BillItem>;

const Utm = z.object({ utm_source: z.string().optional(), utm_medium: z.string().optional(), utm_campaign: z.string().optional() });

export const Bill = z.object({
  bill_id: LooseId,
  bill_number: z.string().optional(),
  payment_time: Text,
  created_by: z.string().optional(),
  currency_id: z.string().optional(),
  total_price: Money,
  utm: Utm.optional(),
  bill_items: z.array(BillItem).min(1),
});
export type Bill = z.infer<typeof Bill>;

/** A voucher or reward the bill used, by its code (PaymentVoucher); the rest of it the till's own record. */
const PaymentVoucher = z.object({ code: Text });

/** Credit paid with is never negative: a till cannot add credit by paying a negative amount. */
const CreditPaid = Money.refine((minor) => minor >= 0, { message: 'must not be negative', params: { reason: 'not_allowed_value' } });

export const FinalBill = Bill.extend({
  fiscal: z.boolean().optional(),
  purchase_type_id: z.string().optional(),
  canceled: z.boolean().default(false),
  payment_type: z.string().optional(),
  payment_recap: z
    .object({ credit_points: Points.default(0), amount_for_credit: CreditPaid.default(0), vouchers: z.array(PaymentVoucher).default([]) })
    .default({ credit_points: 0, amount_for_credit: 0, vouchers: [] }),
  create_date_time: z.string().optional(),
});
export type FinalBill = z.infer<typeof FinalBill>;

/** A number a till sends that is never below zero: a negative one is not a number of this kind at all. */
const NOT_NEGATIVE = { message: 'must not be negative', params: { reason: 'invalid_value_format' } };

/** Cash desk numbers arrive as numbers or numeric strings (DESIGN §2). */
const CashdeskNumber = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).refine((number) => number >= 0, NOT_NEGATIVE);

/** The most points a customer will pay with: none or more. */
const MaxPoints = Points.refine((milli) => milli >= 0, NOT_NEGATIVE);

/*
 * A till names the customer by card_number or, when it knows them otherwise (an app, an
 * e-mail or a phone number at the till), by customer_id; never both (CheckoutService).
 *
 * The cash desk's two questions are compiled (zod's AOT fast path): a bill's dozen amounts
 * and ids are checked in one generated function instead of a walk over the schema per
 * call. The answers and the issues are zod's own — a body the fast path refuses is parsed
 * again by the runtime parser, which reports its issues.
 */
export const RecommendedBestRewards = z.compile(
  z.object({
    store_id: Id,
    cashdesk_number: CashdeskNumber,
    card_number: Text.optional(),
    customer_id: Id.optional(),
    reward_list_type: z.enum(['F', 'C', 'A']),
    bill: Bill,
  }),
);
export type RecommendedBestRewards = z.infer<typeof RecommendedBestRewards>;

export const AcceptPayment = z.compile(
  z.object({
    store_id: Id,
    cashdesk_number: CashdeskNumber,
    card_number: z.string().optional(),
    customer_id: Id.optional(),
    payment_type: z.enum(['S', 'D']),
    max_points: MaxPoints.optional(),
    max_credit: Money.optional(),
    benefit_codes: z.array(Text).default([]),
    bill: Bill,
  }),
);
export type AcceptPayment = z.infer<typeof AcceptPayment>;

export const SendPurchase = z.object({
  store_id: Id,
  cashdesk_number: CashdeskNumber,
  card_number: z.string().optional(),
  customer_id: z.string().optional(),
  bill: FinalBill,
});
export type SendPurchase = z.infer<typeof SendPurchase>;

export const AssignCustomer = z
  .object({ store_id: Id, external_purchase_id: Text, card_number: z.string().optional(), customer_id: z.string().optional() })
  .refine((body) => body.card_number !== undefined || body.customer_id !== undefined, {
    message: 'send card_number or customer_id',
    path: ['customer_id'],
    params: { reason: 'required' },
  });
export type AssignCustomer = z.infer<typeof AssignCustomer>;

/*
 * Answer structures of the purchase actions (interface.md), for the API document
 * (src/http/openapi.ts); the services build their answers as these types.
 */

/** A reward recommended-best-rewards lists. */
export const RecommendedRewardListing = z.object({
  code: z.string(),
  name: z.string(),
  reward_priority: z.number().int().min(1).max(9),
  max_count: z.number().int().min(0).meta({ description: 'How many times the reward can apply to this bill; 0 when it cannot' }),
  description: z.string(),
  reward_properties: z.object({
    image: z.string(),
    valid_from: z.string().meta({ description: 'Time of day, HH:MM:SS' }),
    valid_to: z.string().meta({ description: 'Time of day, HH:MM:SS' }),
  }),
});
export type RecommendedRewardListing = z.infer<typeof RecommendedRewardListing>;

export const RecommendedBestRewardsAnswer = z.object({
  recommended_best_rewards: z.array(RecommendedRewardListing),
  total_items: z.number().int().min(0),
});

/**
 * One discounted line (the specs' DiscountItem, typed as the 2021 spec types it), with the
 * fields the first answers carried (code, name, type, discount, bill_item_ids), now of that
 * line alone.
 */
export const DiscountItem = z
  .object({
    bill_item_id: z.string().meta({ description: 'The bill item the discount is given on' }),
    discount_code: z.string().meta({ description: 'The reward, voucher or campaign price (`campaign:<product_id>`)' }),
    discount_value: z.string().meta({ description: 'Money off this line, in the currency of the bill, as decimal text', example: '7.00' }),
    discount_percent: z.string().meta({
      description: "A percentage discount's rate; otherwise the share of the line's paid amount it takes, as decimal text",
      example: '10.00',
    }),
    description: z.string().meta({ description: 'The name of the reward, or "Campaign price"' }),
    code: z.string().meta({ description: 'As discount_code' }),
    name: z.string().meta({ description: 'As description' }),
    type: z.enum(['campaign_product', 'reward', 'voucher']),
    discount: z.number().meta({ description: 'Money off this line, as a number' }),
    bill_item_ids: z.array(z.string()).meta({ description: 'The one line, [bill_item_id]' }),
  })
  .meta({ id: 'DiscountItem', description: 'A discount on one line of the bill' });
export type DiscountItem = z.infer<typeof DiscountItem>;

export const AcceptPaymentAnswer = z.object({
  accepted_payment: z.object({
    recommended_discounts: z.array(DiscountItem).meta({ description: 'One item per discounted line and discount' }),
    credit_points: z.number().meta({ description: 'Points used to pay' }),
    price_of_credit_points: z.number().meta({ description: 'The money those points pay' }),
    credit: z.number().meta({ description: 'Credit used to pay' }),
    benefit_codes: z.array(z.string()).meta({ description: 'The vouchers applied' }),
    credit_points_of_this_transaction: z.number().meta({ description: 'Points this bill earns' }),
    total_credit_points: z.number().meta({ description: "The customer's points once the bill is closed" }),
    total_credit: z.number().meta({ description: "The customer's credit once the bill is closed" }),
    messages: z.array(z.object({ text: z.string() })),
  }),
});
export type AcceptPaymentAnswer = z.infer<typeof AcceptPaymentAnswer>;

export const SendPurchaseAnswer = z.object({ purchase_id: Id });
export type SendPurchaseAnswer = z.infer<typeof SendPurchaseAnswer>;
