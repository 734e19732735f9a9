/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill, then by code.
 */
import type { Bill } from './bill.js';
import type { Discount, RewardDefinition } from './program.schemas.js';
import type { RewardMatcher } from './reward-matcher.js';
import { countOf, discountOn, eligibleLines, isAvailable, paidLines, paidTotal } from './rewards.js';

export type RewardListType = 'F' | 'C' | 'A';

export interface RecommendedReward {
  reward: RewardDefinition;
  /** The reward's place among the catalog's rewards. */
  position: number;
  maxCount: number;
  /** Discount of max_count uses (of one, when none is possible), in minor units. */
  value: number;
}

/**
 * A reward's terms as recommendations weigh them, copied out of its definition into small
 * objects made one after another: the hundred a call weighs then lie together in memory
 * instead of across the heap with their definitions, and on the checkout bench reading
 * the definitions themselves cost more than the arithmetic.
 */
interface RewardTerms {
  priority: number;
  is_automated: boolean;
  /** No dates, stores or hours of day to check. */
  unrestricted: boolean;
  conditioned: boolean;
  max_uses_per_bill: number;
  points_cost: number;
  discount: Discount;
  /** The reward's place in the codes' localeCompare order; equal codes share it. */
  codeRank: number;
}

/** The catalog as recommendations read it. */
export interface RankedRewards {
  matcher: RewardMatcher;
  terms: RewardTerms[];
}

export function rankRewards(matcher: RewardMatcher): RankedRewards {
  const { rewards } = matcher;
  const codeRank = rankCodes(rewards);
  const terms = rewards.map(
    (reward, position): RewardTerms => ({
      priority: reward.priority,
      is_automated: reward.is_automated,
      unrestricted: !reward.valid_from && !reward.valid_to && reward.store_ids.length === 0 && !(reward.time_from && reward.time_to),
      conditioned: reward.conditions.length > 0,
      max_uses_per_bill: reward.max_uses_per_bill,
      points_cost: reward.points_cost,
      discount: { ...reward.discount },
      codeRank: codeRank[position]!,
    }),
  );
  return { matcher, terms };
}

interface Candidate extends RecommendedReward {
  priority: number;
  codeRank: number;
}

export function recommendRewards({ matcher, terms }: RankedRewards, bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  const { rewards } = matcher;
  const met = matcher.match(bill.lines);
  const paidInProgram = paidTotal(paidLines(bill.lines));
  const found: Candidate[] = [];
  // C lists only rewards the items meet (so none without conditions); F and A weigh every
  // reward, one the items do not meet having max_count 0 and no value.
  const candidates = type === 'C' ? met : Array.from(rewards.keys());
  for (const position of candidates) {
    const reward = terms[position]!;
    if (type !== 'A' && reward.is_automated) continue;
    if (!reward.unrestricted && !isAvailable(rewards[position]!, bill)) continue;
    const count = countOf(reward, matcher.usesByItems(position), balanceMilli);
    if (type === 'C' && count === 0) continue;
    const eligibleTotal = reward.conditioned ? matcher.paidByMatching(position) : paidInProgram;
    const value = discountOn(reward.discount, eligibleTotal, Math.max(1, count), () => eligibleLines(rewards[position]!, bill.lines));
    found.push({ reward: rewards[position]!, position, maxCount: count, value, priority: reward.priority, codeRank: reward.codeRank });
  }
  found.sort((a, b) => a.priority - b.priority || b.value - a.value || a.codeRank - b.codeRank || a.position - b.position);
  return found.map(({ reward, position, maxCount, value }) => ({ reward, position, maxCount, value }));
}

/** The order localeCompare gives the rewards' codes: each position's rank, equal codes equal. */
function rankCodes(rewards: RewardDefinition[]): Int32Array {
  const byCode = [...rewards.keys()].sort((a, b) => rewards[a]!.code.localeCompare(rewards[b]!.code));
  const ranks = new Int32Array(rewards.length);
  byCode.forEach((position, n) => {
    const previous = byCode[n - 1];
    ranks[position] = previous !== undefined && rewards[previous]!.code.localeCompare(rewards[position]!.code) === 0 ? ranks[previous]! : n;
  });
  return ranks;
}
