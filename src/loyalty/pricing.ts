/**
 * accept-payment's arithmetic (DESIGN §6), in minor units and thousandths of a point:
 * campaign prices and automated rewards on the items, the vouchers named, then points
 * priced at the point value to pay what is left (never more than the balance, the
 * requested maximum, or the bill), then credit for what the points left (never more than
 * the credit balance or the requested maximum), and the points and credit back the bill
 * earns. Payment type `S` collects points and credit back and applies only item-level
 * discounts; `D` applies every discount now and collects nothing.
 */
import { wholeUnits, type Bill, type BillLine } from './bill.js';
import { creditBack } from './credit-back.js';
import { discountLines, type LineDiscount } from './discount-lines.js';
import { earnedPointsMilli } from './earning.js';
import type { Program, RewardDefinition } from './program.schemas.js';
import type { BillRewards } from './reward-matcher.js';
import { countOf, eligibleLines, isAvailable } from './rewards.js';

export interface CampaignPrice {
  value_minor: number;
  /** 1: percentage discount (value in hundredths of a percent), 2: final unit price. */
  value_type_id: 1 | 2;
}

export interface AppliedDiscount {
  code: string;
  name: string;
  source: 'campaign_product' | 'reward' | 'voucher';
  amount_minor: number;
  /** The lines whose earning the discount lowers: a campaign price's own line; none for a reward's or a voucher's. */
  bill_item_ids: string[];
  /** The discount by the line it is given on (src/loyalty/discount-lines.ts). */
  lines: LineDiscount[];
  /** A percentage discount's rate, in hundredths of a percent; none for an amount or a price. */
  percent_hundredths: number | undefined;
}

export interface PaymentInput {
  program: Program;
  rewards: RewardDefinition[];
  /** What the bill's lines do for the rewards and the vouchers' rewards (src/loyalty/reward-matcher.ts). */
  evaluation: BillRewards;
  bill: Bill;
  totalMinor: number;
  paymentType: 'S' | 'D';
  balanceMilli: number;
  maxPointsMilli: number;
  creditBalanceMinor: number;
  maxCreditMinor: number;
  campaignPrices: Map<string, CampaignPrice>;
  vouchers: { code: string; reward: RewardDefinition }[];
}

export interface PaymentResult {
  discounts: AppliedDiscount[];
  pointsUsedMilli: number;
  pointsPriceMinor: number;
  pointsEarnedMilli: number;
  creditUsedMinor: number;
  creditEarnedMinor: number;
}

export function campaignDiscount(line: BillLine, price: CampaignPrice): number {
  if (line.loyalty_off || line.quantity_milli <= 0) return 0;
  if (price.value_type_id === 1) return Math.floor((line.paid_minor * price.value_minor) / 10_000);
  return Math.max(0, line.unit_price_minor - price.value_minor) * wholeUnits(line);
}

export function pricePayment(input: PaymentInput): PaymentResult {
  const { bill, paymentType } = input;
  const discounts: AppliedDiscount[] = [];
  for (const line of bill.lines) {
    const price = line.product_id ? input.campaignPrices.get(line.product_id) : undefined;
    const amount = price ? campaignDiscount(line, price) : 0;
    if (price && amount > 0) {
      discounts.push({
        code: `campaign:${line.product_id}`,
        name: 'Campaign price',
        source: 'campaign_product',
        amount_minor: amount,
        bill_item_ids: [line.bill_item_id],
        lines: [{ bill_item_id: line.bill_item_id, amount_minor: amount }],
        percent_hundredths: price.value_type_id === 1 ? price.value_minor : undefined,
      });
    }
  }
  const rewardDiscount = (code: string, reward: RewardDefinition, source: 'reward' | 'voucher', uses: number, amount: number): AppliedDiscount => ({
    code,
    name: reward.name,
    source,
    amount_minor: amount,
    bill_item_ids: [],
    lines: discountLines(reward.discount, amount, uses, eligibleLines(reward, bill.lines)),
    percent_hundredths: reward.discount.type === 'percent' ? reward.discount.value * 100 : undefined,
  });
  for (const reward of input.rewards) {
    if (!reward.is_automated || !isAvailable(reward, bill)) continue;
    if (paymentType === 'S' && reward.conditions.length === 0) continue;
    const uses = countOf(reward, input.evaluation.usesByItems(reward), input.balanceMilli);
    const amount = input.evaluation.discount(reward, uses);
    if (amount > 0) discounts.push(rewardDiscount(reward.code, reward, 'reward', uses, amount));
  }
  for (const voucher of input.vouchers)
    discounts.push(rewardDiscount(voucher.code, voucher.reward, 'voucher', 1, input.evaluation.discount(voucher.reward, 1)));
  const discounted = Math.max(0, input.totalMinor - discounts.reduce((sum, discount) => sum + discount.amount_minor, 0));
  // Points pay only what they cover whole: a point worth 0.50 pays 0.50, never 0.49.
  const pointsForBill = input.program.point_value > 0 ? Math.floor(discounted / input.program.point_value) * 1000 : 0;
  const pointsUsedMilli = Math.max(0, Math.min(input.maxPointsMilli, input.balanceMilli, pointsForBill));
  const pointsPriceMinor = priceOfPoints(pointsUsedMilli, input.program.point_value);
  const creditUsedMinor = Math.max(0, Math.min(input.maxCreditMinor, input.creditBalanceMinor, discounted - pointsPriceMinor));
  const paidMinor = discounted - pointsPriceMinor - creditUsedMinor;
  const collects = paymentType === 'S';
  const pointsEarnedMilli = collects ? Math.max(0, earnedPointsMilli(input.program.earning, earningLines(bill.lines, discounts))) : 0;
  const creditEarnedMinor = collects ? Math.max(0, creditBack(input.program.credit_back, paidMinor, bill.lines)) : 0;
  return { discounts, pointsUsedMilli, pointsPriceMinor, pointsEarnedMilli, creditUsedMinor, creditEarnedMinor };
}

/** What points pay, in minor units, rounded down to the minor unit. */
export function priceOfPoints(milli: number, pointValue: number): number {
  return Math.floor((milli * pointValue) / 1000);
}

/** Lines as they earn: what was paid after the discounts given on that very line. */
function earningLines(lines: BillLine[], discounts: AppliedDiscount[]): BillLine[] {
  return lines.map((line) => {
    const off = discounts
      .filter((discount) => discount.bill_item_ids.includes(line.bill_item_id))
      .reduce((sum, discount) => sum + discount.amount_minor, 0);
    return off > 0 ? { ...line, paid_minor: Math.max(0, line.paid_minor - off) } : line;
  });
}
