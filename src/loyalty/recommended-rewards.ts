/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill.
 */
import type { Bill } from './bill.js';
import type { RewardDefinition } from './program.schemas.js';
import { discountOf, isAvailable, matchingLines, maxCount } from './rewards.js';

export type RewardListType = 'F' | 'C' | 'A';

export interface RecommendedReward {
  reward: RewardDefinition;
  maxCount: number;
  /** Discount of max_count uses (of one, when none is possible), in minor units. */
  value: number;
}

export function recommendRewards(rewards: RewardDefinition[], bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  return rewards
    .filter((reward) => (type === 'A' || !reward.is_automated) && isAvailable(reward, bill))
    // For C, rewards the bill's items do not meet are dropped before they are priced.
    .filter((reward) => type !== 'C' || (reward.conditions.length > 0 && matchingLines(reward, bill.lines).length > 0))
    .map((reward) => {
      const count = maxCount(reward, bill.lines, balanceMilli);
      return { reward, maxCount: count, value: discountOf(reward, bill.lines, Math.max(1, count)) };
    })
    .filter(({ maxCount: count }) => type !== 'C' || count > 0)
    .sort((a, b) => a.reward.priority - b.reward.priority || b.value - a.value || a.reward.code.localeCompare(b.reward.code));
}
