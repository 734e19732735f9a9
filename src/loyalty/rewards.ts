/**
 * Which rewards a bill can use and what they are worth (DESIGN §6). Pure functions over a
 * bill and the program's reward definitions; all money in minor units, points in
 * thousandths. What a bill's items do for a reward — its uses, what its lines cost — is
 * found by the one evaluator, src/loyalty/reward-matcher.ts.
 */
import { wholeUnits, type Bill, type BillLine } from './bill.js';
import type { Discount, RewardCondition, RewardDefinition } from './program.schemas.js';

/** True when isAvailable has nothing to check: no dates, no stores, no hours of day. */
export function alwaysAvailable(reward: RewardDefinition): boolean {
  return !reward.valid_from && !reward.valid_to && reward.store_ids.length === 0 && !(reward.time_from && reward.time_to);
}

export function isAvailable(reward: RewardDefinition, bill: Pick<Bill, 'store_id' | 'day' | 'time'>): boolean {
  if (reward.valid_from && bill.day < reward.valid_from) return false;
  if (reward.valid_to && bill.day > reward.valid_to) return false;
  if (reward.store_ids.length > 0 && !reward.store_ids.includes(bill.store_id)) return false;
  if (reward.time_from && reward.time_to) {
    // A window such as 22:00–02:00 wraps past midnight.
    const inside =
      reward.time_from <= reward.time_to
        ? bill.time >= reward.time_from && bill.time <= reward.time_to
        : bill.time >= reward.time_from || bill.time <= reward.time_to;
    if (!inside) return false;
  }
  return true;
}

export function lineMatches(condition: RewardCondition, line: BillLine): boolean {
  if (line.loyalty_off || line.quantity_milli <= 0) return false;
  return (
    (line.product_id !== null && names(condition.product_ids, line.product_id)) ||
    (line.product_group_id !== null && names(condition.product_group_ids, line.product_group_id)) ||
    (line.brand_id !== null && names(condition.brand_ids, line.brand_id))
  );
}

/** includes() written out: recommended-best-rewards asks a thousand times a call, and the loop took a fifth off its reward evaluation. */
function names(ids: string[], id: string): boolean {
  for (let i = 0; i < ids.length; i += 1) if (ids[i] === id) return true;
  return false;
}

/** Lines that meet at least one of the reward's conditions. */
export function matchingLines(reward: RewardDefinition, lines: BillLine[]): BillLine[] {
  // Loops rather than filter and some: recommended-best-rewards runs this for every reward a bill can meet.
  const matching: BillLine[] = [];
  for (const line of lines) {
    for (const condition of reward.conditions) {
      if (lineMatches(condition, line)) {
        matching.push(line);
        break;
      }
    }
  }
  return matching;
}

/** `max_count` of recommended-best-rewards, given the uses the bill's items allow (src/loyalty/reward-matcher.ts): 0 when the reward cannot be applied. */
export function countOf(reward: Pick<RewardDefinition, 'max_uses_per_bill' | 'points_cost'>, usesByItems: number, balanceMilli: number): number {
  const byPoints = reward.points_cost > 0 ? Math.floor(Math.max(0, balanceMilli) / reward.points_cost) : Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(reward.max_uses_per_bill, usesByItems, byPoints));
}

/**
 * The discount of `uses` uses of a reward, never more than the lines it applies to cost,
 * given what those lines cost and the lines themselves (read for a final price only).
 * Percent: once, on the matching lines (the whole bill without conditions), rounded down
 * to the minor unit. Amount: per use. Final price: the cheapest matching units are sold at
 * that price, one unit per use.
 */
export function discountOn(discount: Discount, eligibleTotal: number, uses: number, eligible: () => BillLine[]): number {
  if (uses <= 0) return 0;
  switch (discount.type) {
    case 'percent':
      return Math.floor((eligibleTotal * discount.value) / 100);
    case 'amount':
      return Math.min(eligibleTotal, discount.value * uses);
    case 'final_price': {
      const units = eligible()
        .flatMap((line) => Array.from({ length: wholeUnits(line) }, () => line.unit_price_minor))
        .sort((a, b) => a - b)
        .slice(0, uses);
      return units.reduce((sum, price) => sum + Math.max(0, price - discount.value), 0);
    }
  }
}

/** The lines a reward's discount applies to: those meeting a condition, or every paid line in the program. */
export function eligibleLines(reward: RewardDefinition, lines: BillLine[]): BillLine[] {
  return reward.conditions.length === 0 ? paidLines(lines) : matchingLines(reward, lines);
}

/** What a reward without conditions applies to: the paid lines in the program. */
export function paidLines(lines: BillLine[]): BillLine[] {
  return lines.filter((line) => !line.loyalty_off && line.paid_minor > 0);
}

export function paidTotal(lines: BillLine[]): number {
  return lines.reduce((sum, line) => sum + Math.max(0, line.paid_minor), 0);
}
