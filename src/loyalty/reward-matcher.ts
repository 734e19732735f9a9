/**
 * What a bill's items do for each reward of the catalog, found in one pass over its lines:
 * an index from each product, group and brand id a condition names to the (reward,
 * condition) pairs naming it, so that five items visit the hundred-odd pairs they meet
 * rather than every condition of two thousand rewards. For each reward met it sums the
 * whole units each condition matches and what the matching lines cost. It is the one
 * evaluator of rewards: recommendations weigh every reward with it, accept-payment prices
 * the automated rewards and the vouchers named with it (evaluate), and
 * test/loyalty/reward-evaluation.test.ts holds it to a brute-force statement of the rules.
 *
 * The sums live in typed arrays kept from call to call and stamped with the call (and the
 * line) that last wrote them, so a call clears nothing and allocates one list. Stamps are
 * doubles: at 10,000 lines a second they run out after 28,000 years.
 */
import { wholeUnits, type BillLine } from './bill.js';
import type { RewardDefinition } from './program.schemas.js';
import { discountOn, eligibleLines, paidLines, paidTotal } from './rewards.js';

/** What one bill's lines do for any reward of a matcher, read before its next match. */
export interface BillRewards {
  /** How many times the bill's items allow the reward; the scarcest condition decides. */
  usesByItems(reward: RewardDefinition): number;
  /** The discount of `uses` uses of the reward on the bill (src/loyalty/rewards.ts, discountOn). */
  discount(reward: RewardDefinition, uses: number): number;
}

/** Flat pairs: a reward's position in the catalog, then the slot of its condition. */
type Pairs = number[];

export class RewardMatcher {
  /** Reward p's conditions are slots firstSlot[p] up to firstSlot[p + 1]. */
  private readonly firstSlot: Int32Array;
  private readonly minCount: Int32Array;
  /** Each reward's uses per bill, read here rather than from its definition. */
  private readonly maxUses: Float64Array;
  private readonly byProduct = new Map<string, Pairs>();
  private readonly byGroup = new Map<string, Pairs>();
  private readonly byBrand = new Map<string, Pairs>();
  /** Positions of the included rewards without conditions, in order. */
  private readonly unconditioned: number[] = [];

  private call = 0;
  private line = 0;
  private readonly rewardCall: Float64Array;
  private readonly rewardLine: Float64Array;
  private readonly paid: Float64Array;
  private readonly slotLine: Float64Array;
  private readonly units: Float64Array;
  private met: number[] = [];
  private readonly positions: Map<RewardDefinition, number>;

  /** Indexes the rewards `included` takes; the others are never met. */
  constructor(
    readonly rewards: RewardDefinition[],
    included: (reward: RewardDefinition) => boolean,
  ) {
    this.firstSlot = new Int32Array(rewards.length + 1);
    rewards.forEach((reward, position) => (this.firstSlot[position + 1] = this.firstSlot[position]! + reward.conditions.length));
    const slots = this.firstSlot[rewards.length]!;
    this.minCount = new Int32Array(slots);
    this.maxUses = Float64Array.from(rewards, (reward) => reward.max_uses_per_bill);
    rewards.forEach((reward, position) => {
      if (!included(reward)) return;
      if (reward.conditions.length === 0) this.unconditioned.push(position);
      reward.conditions.forEach((condition, n) => {
        const slot = this.firstSlot[position]! + n;
        this.minCount[slot] = condition.min_count;
        for (const id of condition.product_ids) addPair(this.byProduct, id, position, slot);
        for (const id of condition.product_group_ids) addPair(this.byGroup, id, position, slot);
        for (const id of condition.brand_ids) addPair(this.byBrand, id, position, slot);
      });
    });
    this.rewardCall = new Float64Array(rewards.length);
    this.rewardLine = new Float64Array(rewards.length);
    this.paid = new Float64Array(rewards.length);
    this.slotLine = new Float64Array(slots);
    this.units = new Float64Array(slots);
    this.positions = new Map(rewards.map((reward, position) => [reward, position]));
  }

  /**
   * Matches the lines and answers for any reward of this matcher (one `included` takes: the
   * others are never met) until the next match.
   */
  evaluate(lines: BillLine[]): BillRewards {
    this.match(lines);
    const call = this.call;
    const paidInProgram = paidTotal(paidLines(lines));
    const positionOf = (reward: RewardDefinition) => {
      const position = this.positions.get(reward);
      if (position === undefined) throw new Error(`reward ${reward.id} is not in this matcher's catalog`);
      if (call !== this.call) throw new Error('the matcher has matched other lines since');
      return position;
    };
    return {
      usesByItems: (reward) => this.usesByItems(positionOf(reward)),
      discount: (reward, uses) => {
        const position = positionOf(reward);
        const eligibleTotal = reward.conditions.length > 0 ? this.paidByMatching(position) : paidInProgram;
        return discountOn(reward.discount, eligibleTotal, uses, () => eligibleLines(reward, lines));
      },
    };
  }

  /**
   * Positions of the rewards with a condition one of these lines meets, in the order met.
   * Until the next call, usesByItems and paidByMatching answer for these lines.
   */
  match(lines: BillLine[]): number[] {
    this.call += 1;
    this.met = [];
    for (const line of lines) {
      // As lineMatches: an item out of the program or taken back meets no condition.
      if (line.loyalty_off || line.quantity_milli <= 0) continue;
      this.line += 1;
      if (line.product_id !== null) this.visit(this.byProduct.get(line.product_id), line);
      if (line.product_group_id !== null) this.visit(this.byGroup.get(line.product_group_id), line);
      if (line.brand_id !== null) this.visit(this.byBrand.get(line.brand_id), line);
    }
    return this.met;
  }

  /** The included rewards these lines can meet and those without conditions, in catalog order. */
  meetable(lines: BillLine[]): RewardDefinition[] {
    const positions = Int32Array.from([...this.unconditioned, ...this.match(lines)]).sort();
    return Array.from(positions, (position) => this.rewards[position]!);
  }

  /** usesByItems of the reward at this position for the lines of the last match. */
  usesByItems(position: number): number {
    const first = this.firstSlot[position]!;
    const end = this.firstSlot[position + 1]!;
    if (first === end) return this.maxUses[position]!;
    if (this.rewardCall[position] !== this.call) return 0;
    let uses = Number.POSITIVE_INFINITY;
    for (let slot = first; slot < end; slot += 1) {
      uses = Math.min(uses, Math.floor(this.units[slot]! / this.minCount[slot]!));
    }
    return uses;
  }

  /** What the lines of the last match that meet a condition of this (conditioned) reward cost. */
  paidByMatching(position: number): number {
    return this.rewardCall[position] === this.call ? this.paid[position]! : 0;
  }

  private visit(pairs: Pairs | undefined, line: BillLine): void {
    if (!pairs) return;
    for (let i = 0; i < pairs.length; i += 2) {
      const position = pairs[i]!;
      const slot = pairs[i + 1]!;
      if (this.rewardCall[position] !== this.call) this.start(position);
      // A line counts once for a reward and once for each condition, whichever of its ids meets it.
      if (this.rewardLine[position] !== this.line) {
        this.rewardLine[position] = this.line;
        this.paid[position] = this.paid[position]! + Math.max(0, line.paid_minor);
      }
      if (this.slotLine[slot] !== this.line) {
        this.slotLine[slot] = this.line;
        this.units[slot] = this.units[slot]! + wholeUnits(line);
      }
    }
  }

  private start(position: number): void {
    this.rewardCall[position] = this.call;
    this.paid[position] = 0;
    // A loop, not units.fill(): a reward has a condition or two, and fill() is a call out of
    // the compiled code for each of the hundred rewards a bill meets.
    for (let slot = this.firstSlot[position]!; slot < this.firstSlot[position + 1]!; slot += 1) this.units[slot] = 0;
    this.met.push(position);
  }
}

/** A condition naming an id twice adds one pair. */
function addPair(index: Map<string, Pairs>, id: string, position: number, slot: number): void {
  const pairs = index.get(id);
  if (!pairs) index.set(id, [position, slot]);
  else if (pairs.at(-1) !== slot) pairs.push(position, slot);
}
