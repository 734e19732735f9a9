/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill.
 */
import type { Bill } from './bill.js';
import type { RewardDefinition } from './program.schemas.js';
import { discountOf, isAvailable, maxCount } from './rewards.js';

export type RewardListType = 'F' | 'C' | 'A';

export interface RecommendedReward {
  reward: RewardDefinition;
  maxCount: number;
  /** Discount of max_count uses (of one, when none is possible), in minor units. */
  value: number;
}

export function recommendRewards(rewards: RewardDefinition[], bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  const recommended: RecommendedReward[] = [];
  for (const reward of rewards) {
    if ((type !== 'A' && reward.is_automated) || !isAvailable(reward, bill)) continue;
    // For C, a reward without conditions is dropped before it is priced; max_count > 0 also
    // means the bill's items meet each of its conditions.
    if (type === 'C' && reward.conditions.length === 0) continue;
    const count = maxCount(reward, bill.lines, balanceMilli);
    if (type === 'C' && count === 0) continue;
    recommended.push({ reward, maxCount: count, value: discountOf(reward, bill.lines, Math.max(1, count)) });
  }
  return recommended.sort((a, b) => a.reward.priority - b.reward.priority || b.value - a.value || a.reward.code.localeCompare(b.reward.code));
}
