/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill, then by code.
 */
import type { Bill } from './bill.js';
import type { Discount, RewardDefinition } from './program.schemas.js';
import type { RewardMatcher } from './reward-matcher.js';
import { alwaysAvailable, countOf, discountOn, eligibleLines, isAvailable, paidLines, paidTotal } from './rewards.js';

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
}

/** The catalog as recommendations read it. */
export interface RankedRewards {
  matcher: RewardMatcher;
  terms: RewardTerms[];
  /** Each reward's place in the order priority, code, position — the list's order but for value. */
  staticRank: Int32Array;
  /** The positions in that order. */
  byStaticRank: Int32Array;
}

export function rankRewards(matcher: RewardMatcher): RankedRewards {
  const { rewards } = matcher;
  const terms = rewards.map(
    (reward): RewardTerms => ({
      priority: reward.priority,
      is_automated: reward.is_automated,
      unrestricted: alwaysAvailable(reward),
      conditioned: reward.conditions.length > 0,
      max_uses_per_bill: reward.max_uses_per_bill,
      points_cost: reward.points_cost,
      discount: { ...reward.discount },
    }),
  );
  const byStaticRank = Int32Array.from(rewards.keys()).sort((a, b) => terms[a]!.priority - terms[b]!.priority || rewards[a]!.code.localeCompare(rewards[b]!.code) || a - b);
  const staticRank = new Int32Array(rewards.length);
  byStaticRank.forEach((position, rank) => (staticRank[position] = rank));
  return { matcher, terms, staticRank, byStaticRank };
}

export function recommendRewards(ranked: RankedRewards, bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  const { matcher, terms } = ranked;
  const { rewards } = matcher;
  const met = matcher.match(bill.lines);
  const paidInProgram = paidTotal(paidLines(bill.lines));
  const found: RecommendedReward[] = [];
  // C lists only rewards the items meet (so none without conditions); F and A weigh every
  // reward, one the items do not meet having max_count 0 and no value. Either way they are
  // weighed in the list's order but for value, so that ordering by value keeps the rest.
  for (const position of type === 'C' ? inStaticOrder(ranked, met) : ranked.byStaticRank) {
    const reward = terms[position]!;
    if (type !== 'A' && reward.is_automated) continue;
    if (!reward.unrestricted && !isAvailable(rewards[position]!, bill)) continue;
    const count = countOf(reward, matcher.usesByItems(position), balanceMilli);
    if (type === 'C' && count === 0) continue;
    const eligibleTotal = reward.conditioned ? matcher.paidByMatching(position) : paidInProgram;
    const value = discountOn(reward.discount, eligibleTotal, Math.max(1, count), () => eligibleLines(rewards[position]!, bill.lines));
    found.push({ reward: rewards[position]!, position, maxCount: count, value });
  }
  return byPriorityAndValue(found, terms);
}

function inStaticOrder({ staticRank, byStaticRank }: RankedRewards, positions: number[]): Int32Array {
  const ranks = new Int32Array(positions.length);
  positions.forEach((position, n) => (ranks[n] = staticRank[position]!));
  return ranks.sort().map((rank) => byStaticRank[rank]!);
}

/** Longer lists (F and A on a large program) are sorted by a comparator. */
const INSERTION_SORTED = 256;

/**
 * Orders `found`, which is in priority, code, position order, by priority and then value,
 * highest first, keeping that order among equals. Only each priority's run has to move: an
 * insertion sort does that in a few comparisons a reward, where a comparator sort called
 * back into JavaScript ~500 times for a hundred rewards (8 µs, a twentieth of the call, on
 * the checkout bench).
 */
function byPriorityAndValue(found: RecommendedReward[], terms: RewardTerms[]): RecommendedReward[] {
  const priority = (candidate: RecommendedReward) => terms[candidate.position]!.priority;
  if (found.length > INSERTION_SORTED) return found.sort((a, b) => priority(a) - priority(b) || b.value - a.value);
  for (let i = 1; i < found.length; i += 1) {
    const moving = found[i]!;
    let j = i - 1;
    while (j >= 0 && priority(found[j]!) === priority(moving) && found[j]!.value < moving.value) {
      found[j + 1] = found[j]!;
      j -= 1;
    }
    found[j + 1] = moving;
  }
  return found;
}
