/**
 * recommended-best-rewards (DESIGN §6): `F` every valid manual reward for the store and
 * time, `C` only manual rewards whose conditions the bill's items meet with max_count > 0,
 * `A` also the automated ones. Sorted by priority, then by what the reward is worth to
 * the customer on this bill, then by code.
 */
import type { Bill } from './bill.js';
import type { Discount, RewardDefinition } from './program.schemas.js';
import { RewardMatcher } from './reward-matcher.js';
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

/** The catalog as recommendations read it: its rewards in the order priority, code, catalog place. */
export interface RankedRewards {
  /** The rewards in that order, and a matcher over them: a reward's rank is its position there. */
  matcher: RewardMatcher;
  terms: RewardTerms[];
  /** Each rank's place in the catalog. */
  catalogPosition: Int32Array;
}

export function rankRewards(rewards: RewardDefinition[]): RankedRewards {
  const catalogPosition = Int32Array.from(rewards.keys()).sort(
    (a, b) => rewards[a]!.priority - rewards[b]!.priority || rewards[a]!.code.localeCompare(rewards[b]!.code) || a - b,
  );
  const ranked = Array.from(catalogPosition, (position) => rewards[position]!);
  const terms = ranked.map((reward): RewardTerms => ({
    priority: reward.priority,
    is_automated: reward.is_automated,
    unrestricted: alwaysAvailable(reward),
    conditioned: reward.conditions.length > 0,
    max_uses_per_bill: reward.max_uses_per_bill,
    points_cost: reward.points_cost,
    discount: { ...reward.discount },
  }));
  return { matcher: new RewardMatcher(ranked, () => true), terms, catalogPosition };
}

export function recommendRewards(ranked: RankedRewards, bill: Bill, balanceMilli: number, type: RewardListType): RecommendedReward[] {
  const { matcher, terms, catalogPosition } = ranked;
  const { rewards } = matcher;
  const met = matcher.match(bill.lines);
  const paidInProgram = paidTotal(paidLines(bill.lines));
  const found: RecommendedReward[] = [];
  /** Where each priority's run begins in `found`. */
  const runs: number[] = [];
  let runPriority = 0;
  // C lists only rewards the items meet (so none without conditions); F and A weigh every
  // reward, one the items do not meet having max_count 0 and no value. Either way they are
  // weighed by rank, the list's order but for value, so that ordering by value keeps the rest.
  const candidates = type === 'C' ? Int32Array.from(met).sort() : rewards.keys();
  for (const rank of candidates) {
    const reward = terms[rank]!;
    if (type !== 'A' && reward.is_automated) continue;
    if (!reward.unrestricted && !isAvailable(rewards[rank]!, bill)) continue;
    const count = countOf(reward, matcher.usesByItems(rank), balanceMilli);
    if (type === 'C' && count === 0) continue;
    const eligibleTotal = reward.conditioned ? matcher.paidByMatching(rank) : paidInProgram;
    const value = discountOn(reward.discount, eligibleTotal, Math.max(1, count), () => eligibleLines(rewards[rank]!, bill.lines));
    if (found.length === 0 || reward.priority !== runPriority) {
      runs.push(found.length);
      runPriority = reward.priority;
    }
    found.push({ reward: rewards[rank]!, position: catalogPosition[rank]!, maxCount: count, value });
  }
  return byPriorityAndValue(found, runs);
}

/** Longer lists (F and A on a large program) are sorted by a comparator. */
const INSERTION_SORTED = 256;

/**
 * Orders `found`, which is in rank order and whose priorities' runs begin at `runs`, by
 * priority and then value, highest first, keeping rank order among equals. Only each run
 * has to move: an insertion sort does that in a few comparisons a reward, where a
 * comparator sort called back into JavaScript ~500 times for a hundred rewards (8 µs, a
 * twentieth of the call, on the checkout bench).
 */
function byPriorityAndValue(found: RecommendedReward[], runs: number[]): RecommendedReward[] {
  if (found.length > INSERTION_SORTED) return found.sort((a, b) => a.reward.priority - b.reward.priority || b.value - a.value);
  runs.forEach((start, n) => {
    const end = runs[n + 1] ?? found.length;
    for (let i = start + 1; i < end; i += 1) {
      const moving = found[i]!;
      let j = i - 1;
      while (j >= start && found[j]!.value < moving.value) {
        found[j + 1] = found[j]!;
        j -= 1;
      }
      found[j + 1] = moving;
    }
  });
  return found;
}
