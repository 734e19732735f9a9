/**
 * The cash desk's questions, answered from the local replica without storing anything:
 * recommended-best-rewards and accept-payment (DESIGN §6).
 */
import type { Clock } from '../../core/clock.js';
import { badRequest, invalidParam, type InvalidParam } from '../../core/errors.js';
import type { CardHolder, BalanceReader } from '../../loyalty/balance-reader.js';
import { pricePayment, type CampaignPrice } from '../../loyalty/pricing.js';
import type { ProgramRepo } from '../../loyalty/program.repo.js';
import type { Program, RewardDefinition } from '../../loyalty/program.schemas.js';
import type { BillRewards } from '../../loyalty/reward-matcher.js';
import type { RewardsCatalog } from '../../loyalty/rewards-catalog.js';
import { fromMilli, fromMinor } from '../../core/money.js';
import type { Bill as EngineBill } from '../../loyalty/bill.js';
import type { BillReader } from './bill-reader.js';
import type { CashDeskCampaigns } from './cash-desk-campaigns.js';
import type { CheckoutRepo } from './checkout.repo.js';
import { discountItems } from './discount-items.js';
import { RecommendedAnswers } from './recommended-answer.js';
import type { AcceptPayment, AcceptPaymentAnswer, RecommendedBestRewards } from './checkout.schemas.js';

/** Until a program is loaded: no earning, no rewards, a point worth one minor unit. */
const NO_PROGRAM: Program = { currency_id: '', point_value: 1, earning: [], rewards: [] };

/** What CheckoutService is built from. */
export interface CheckoutServiceOptions {
  repo: CheckoutRepo;
  bills: BillReader;
  balances: BalanceReader;
  program: ProgramRepo;
  catalog: RewardsCatalog;
  campaigns: CashDeskCampaigns;
  clock: Clock;
  reading: <T>(work: () => T) => T;
}

export class CheckoutService {
  private readonly answers = new RecommendedAnswers();

  private readonly repo: CheckoutRepo;
  private readonly bills: BillReader;
  private readonly balances: BalanceReader;
  private readonly program: ProgramRepo;
  private readonly catalog: RewardsCatalog;
  private readonly campaigns: CashDeskCampaigns;
  private readonly clock: Clock;
  private readonly reading: <T>(work: () => T) => T;

  constructor(options: CheckoutServiceOptions) {
    const { repo, bills, balances, program, catalog, campaigns, clock, reading } = options;
    this.repo = repo;
    this.bills = bills;
    this.balances = balances;
    this.program = program;
    this.catalog = catalog;
    this.campaigns = campaigns;
    this.clock = clock;
    this.reading = reading;
  }

  recommended(request: RecommendedBestRewards) {
    return this.reading(() => this.recommendedIn(request));
  }

  acceptPayment(request: AcceptPayment): AcceptPaymentAnswer {
    return this.reading(() => this.acceptPaymentIn(request));
  }

  private recommendedIn(request: RecommendedBestRewards) {
    const holder = this.holderOf(request);
    if (!holder) throw invalidParam('card_number', 'required', undefined, 'Name the customer by card_number or customer_id');
    const { balances } = holder;
    const { bill } = this.bills.read(request.store_id, request.bill);
    return this.answers.answer(this.catalog.recommend(bill, balances.pointsMilli, request.reward_list_type));
  }

  private acceptPaymentIn(request: AcceptPayment): AcceptPaymentAnswer {
    const holder = this.holderOf(request);
    const customerId = holder?.customerId;
    const { bill, paidAt } = this.bills.read(request.store_id, request.bill);
    if (!customerId) refuseWhatNeedsACustomer(request);
    const { pointsMilli: balance, creditMinor: creditBalance } = holder?.balances ?? { pointsMilli: 0, creditMinor: 0 };
    const evaluation = this.catalog.evaluate(bill.lines);
    const result = pricePayment({
      program: this.program.load() ?? NO_PROGRAM,
      // pricePayment applies only the automated rewards; vouchers name the others.
      rewards: this.catalog.automatedMeetableBy(bill.lines),
      evaluation,
      bill,
      totalMinor: request.bill.total_price,
      paymentType: request.payment_type,
      balanceMilli: Math.max(0, balance),
      maxPointsMilli: request.max_points ?? 0,
      creditBalanceMinor: Math.max(0, creditBalance),
      maxCreditMinor: request.max_credit ?? 0,
      campaignPrices: this.campaignPrices(bill, paidAt),
      // Without benefit codes there is nothing to check, nor a second look at the rewards catalog.
      vouchers: customerId && request.benefit_codes.length > 0 ? this.vouchers(request.benefit_codes, customerId, bill, evaluation, paidAt) : [],
    });
    // No customer, no account to earn into: the bill's points are nobody's.
    const earnedMilli = customerId ? result.pointsEarnedMilli : 0;
    return {
      accepted_payment: {
        recommended_discounts: discountItems(result.discounts, bill.lines),
        credit_points: fromMilli(result.pointsUsedMilli),
        price_of_credit_points: fromMinor(result.pointsPriceMinor),
        credit: fromMinor(result.creditUsedMinor),
        benefit_codes: result.discounts.filter((discount) => discount.source === 'voucher').map((discount) => discount.code),
        credit_points_of_this_transaction: fromMilli(earnedMilli),
        total_credit_points: fromMilli(balance - result.pointsUsedMilli + earnedMilli),
        // The credit balance once this bill is closed: less the credit it pays with, plus the
        // credit back it earns. No card, no credit account.
        total_credit: customerId ? fromMinor(creditBalance - result.creditUsedMinor + result.creditEarnedMinor) : 0,
        messages: [],
      },
    };
  }

  /**
   * The customer the till names, by card or by id, with their balances; undefined when it
   * names none (an anonymous bill). Naming both is refused rather than one of them dropped.
   */
  private holderOf(request: { card_number?: string | undefined; customer_id?: string | undefined }): CardHolder | undefined {
    if (request.customer_id === undefined) return request.card_number ? this.cardHolder(request.card_number) : undefined;
    if (request.card_number) {
      throw invalidParam('customer_id', 'not_allowed_value', request.customer_id, 'Name the customer by card_number or by customer_id, not both');
    }
    if (!this.repo.hasCustomer(request.customer_id)) throw invalidParam('customer_id', 'not_found', request.customer_id);
    return { customerId: request.customer_id, balances: this.balances.balancesAt(request.customer_id, this.clock()) };
  }

  private cardHolder(cardNumber: string): CardHolder {
    const holder = this.balances.cardHolder(cardNumber, this.clock());
    if (holder === undefined) throw invalidParam('card_number', 'not_found', cardNumber);
    return holder;
  }

  private campaignPrices(bill: EngineBill, paidAt: number): Map<string, CampaignPrice> {
    const at = new Date(paidAt).toISOString();
    const prices = new Map<string, CampaignPrice>();
    const priceOf = this.campaigns.lookup();
    for (const line of bill.lines) {
      if (!line.product_id || prices.has(line.product_id)) continue;
      const price = priceOf(line.product_id, at, bill.store_id);
      if (price) prices.set(line.product_id, price);
    }
    return prices;
  }

  /** The vouchers named by benefit codes, each checked; every refusal is reported at once. */
  private vouchers(codes: string[], customerId: string, bill: EngineBill, evaluation: BillRewards, paidAt: number) {
    const rewards = this.catalog.rewards();
    const refusals: InvalidParam[] = [];
    const accepted: { code: string; reward: RewardDefinition }[] = [];
    const usesPerReward = new Map<string, number>();
    codes.forEach((code, index) => {
      const name = `benefit_codes.${index}`;
      const voucher = this.repo.voucher(code);
      const reward = rewards.find((candidate) => candidate.id === voucher?.reward_id);
      if (!voucher || voucher.customer_id !== customerId || !reward) return refusals.push({ name, reason: 'not_found', value: code });
      if (voucher.applications > 0) return refusals.push({ name, reason: 'voucher_already_used', value: code });
      const at = new Date(paidAt).toISOString();
      if ((voucher.valid_from && at < voucher.valid_from) || (voucher.valid_to && at > voucher.valid_to)) {
        return refusals.push({ name, reason: 'voucher_expired', value: code });
      }
      if (reward.store_ids.length > 0 && !reward.store_ids.includes(bill.store_id))
        return refusals.push({ name, reason: 'voucher_not_allowed_in_store', value: code });
      if (evaluation.usesByItems(reward) === 0) return refusals.push({ name, reason: 'not_enough_items_for_voucher', value: code });
      const uses = (usesPerReward.get(reward.id) ?? 0) + 1;
      usesPerReward.set(reward.id, uses);
      if (uses > Math.min(reward.max_uses_per_bill, evaluation.usesByItems(reward)))
        return refusals.push({ name, reason: 'max_number_of_voucher_exceeded', value: code });
      accepted.push({ code, reward });
      return undefined;
    });
    if (refusals.length) throw badRequest(refusals, 'The bill cannot take these vouchers.');
    return accepted;
  }
}

/**
 * An anonymous bill (neither card_number nor customer_id) is priced, but what only a
 * customer has is refused rather than dropped: vouchers, points and credit to pay with.
 */
function refuseWhatNeedsACustomer(request: AcceptPayment): void {
  const asked = [
    request.benefit_codes.length > 0 && 'vouchers (benefit_codes)',
    (request.max_points ?? 0) > 0 && 'points (max_points)',
    (request.max_credit ?? 0) > 0 && 'credit (max_credit)',
  ].filter((what): what is string => typeof what === 'string');
  if (asked.length > 0)
    throw invalidParam('card_number', 'required', undefined, `Paying with ${asked.join(', ')} needs the customer: card_number or customer_id`);
}
