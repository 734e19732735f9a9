/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill, then by code.
 */
import type { Bill } from './bill.js';
import type { RewardDefinition } from './program.schemas.js';
import type { RewardMatcher } from './reward-matcher.js';
import { countOf, discountOn, isAvailable, paidLines, paidTotal } from './rewards.js';

export type RewardListType = 'F' | 'C' | 'A';

export interface RecommendedReward {
  reward: RewardDefinition;
  maxCount: number;
  /** Discount of max_count uses (of one, when none is possible), in minor units. */
  value: number;
}

/** The catalog as recommendations read it: its rewards indexed, and each one's place among the codes. */
export interface RankedRewards {
  matcher: RewardMatcher;
  /** Each reward's place in the codes' localeCompare order; equal codes share it. */
  codeRank: Int32Array;
}

interface Candidate extends RecommendedReward {
  position: number;
}

export function recommendRewards({ matcher, codeRank }: RankedRewards, bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  const { rewards } = matcher;
  const met = matcher.match(bill.lines);
  const paidInProgram = paidTotal(paidLines(bill.lines));
  const found: Candidate[] = [];
  // C lists only rewards the items meet (so none without conditions); F and A weigh every
  // reward, one the items do not meet having max_count 0 and no value.
  const candidates = type === 'C' ? met : Array.from(rewards.keys());
  for (const position of candidates) {
    const reward = rewards[position]!;
    if ((type !== 'A' && reward.is_automated) || !isAvailable(reward, bill)) continue;
    const count = countOf(reward, matcher.usesByItems(position), balanceMilli);
    if (type === 'C' && count === 0) continue;
    const eligibleTotal = reward.conditions.length === 0 ? paidInProgram : matcher.paidByMatching(position);
    const value = discountOn(reward, eligibleTotal, bill.lines, Math.max(1, count));
    found.push({ reward, maxCount: count, value, position });
  }
  found.sort((a, b) => a.reward.priority - b.reward.priority || b.value - a.value || codeRank[a.position]! - codeRank[b.position]! || a.position - b.position);
  return found.map(({ reward, maxCount, value }) => ({ reward, maxCount, value }));
}

/** Ranks for RankedRewards.codeRank: the order localeCompare gives the codes, computed once per catalog. */
export function rankCodes(rewards: RewardDefinition[]): Int32Array {
  const byCode = [...rewards.keys()].sort((a, b) => rewards[a]!.code.localeCompare(rewards[b]!.code));
  const ranks = new Int32Array(rewards.length);
  byCode.forEach((position, n) => {
    const previous = byCode[n - 1];
    ranks[position] = previous !== undefined && rewards[previous]!.code.localeCompare(rewards[position]!.code) === 0 ? ranks[previous]! : n;
  });
  return ranks;
}
