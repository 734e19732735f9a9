/**
 * The reward arithmetic has one evaluator (src/loyalty/reward-matcher.ts, with rewards.ts and
 * recommended-rewards.ts), written as loops that visit each reward a bill meets once — the
 * matcher sums, in one pass over the lines, what each reward's conditions match — because
 * recommended-best-rewards runs it for every reward a bill can meet. For any program and any
 * bills, one after another on the same matcher, it must answer as the brute-force statement of
 * the rules below does, and the catalog's automated rewards must be exactly the automated ones
 * among those a bill can meet.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wholeUnits, type Bill, type BillLine } from '../../src/loyalty/bill.js';
import { ProgramRepo } from '../../src/loyalty/program.repo.js';
import { RewardDefinition, type RewardCondition } from '../../src/loyalty/program.schemas.js';
import { ProgramService } from '../../src/loyalty/program.service.js';
import { rankRewards, recommendRewards, type RewardListType } from '../../src/loyalty/recommended-rewards.js';
import { RewardMatcher } from '../../src/loyalty/reward-matcher.js';
import { isAvailable, lineMatches, matchingLines, paidTotal } from '../../src/loyalty/rewards.js';
import { RewardsCatalog } from '../../src/loyalty/rewards-catalog.js';
import { tempNode } from '../support/temp-node.js';
import { id } from '../support/ids.js';
import { subset } from '../support/arbitraries.js';

const PRODUCTS = [1, 2, 3, 4].map((n) => id(0xe1, n));
const GROUPS = [1, 2, 3].map((n) => id(0xe2, n));
const BRANDS = [1, 2].map((n) => id(0xe3, n));
const STORES = [1, 2].map((n) => id(0xe4, n));

function referenceMatchingLines(reward: RewardDefinition, lines: BillLine[]): BillLine[] {
  return lines.filter((line) => reward.conditions.some((condition) => lineMatches(condition, line)));
}

function referenceUsesByItems(reward: RewardDefinition, lines: BillLine[]): number {
  if (reward.conditions.length === 0) return reward.max_uses_per_bill;
  return Math.min(
    ...reward.conditions.map((condition: RewardCondition) => {
      const units = lines.filter((line) => lineMatches(condition, line)).reduce((sum, line) => sum + wholeUnits(line), 0);
      return Math.floor(units / condition.min_count);
    }),
  );
}

/** The discount of `uses` uses, stated plainly (DESIGN §6): percent once, amount per use, final price on the cheapest units. */
function referenceDiscount(reward: RewardDefinition, lines: BillLine[], uses: number): number {
  if (uses <= 0) return 0;
  const eligible =
    reward.conditions.length === 0 ? lines.filter((line) => !line.loyalty_off && line.paid_minor > 0) : referenceMatchingLines(reward, lines);
  const total = eligible.reduce((sum, line) => sum + Math.max(0, line.paid_minor), 0);
  const { type, value } = reward.discount;
  if (type === 'percent') return Math.floor((total * value) / 100);
  if (type === 'amount') return Math.min(total, value * uses);
  const units = eligible.flatMap((line) => Array(wholeUnits(line)).fill(line.unit_price_minor) as number[]).sort((a, b) => a - b);
  return units.slice(0, uses).reduce((sum, price) => sum + Math.max(0, price - value), 0);
}

function referenceMaxCount(reward: RewardDefinition, lines: BillLine[], balanceMilli: number): number {
  const byPoints = reward.points_cost > 0 ? Math.floor(Math.max(0, balanceMilli) / reward.points_cost) : Infinity;
  return Math.max(0, Math.min(reward.max_uses_per_bill, referenceUsesByItems(reward, lines), byPoints));
}

function referenceRecommend(rewards: RewardDefinition[], bill: Bill, balanceMilli: number, type: RewardListType) {
  return rewards
    .filter((reward) => (type === 'A' || !reward.is_automated) && isAvailable(reward, bill))
    .filter((reward) => type !== 'C' || (reward.conditions.length > 0 && referenceMatchingLines(reward, bill.lines).length > 0))
    .map((reward) => {
      const count = referenceMaxCount(reward, bill.lines, balanceMilli);
      return { reward, position: rewards.indexOf(reward), maxCount: count, value: referenceDiscount(reward, bill.lines, Math.max(1, count)) };
    })
    .filter(({ maxCount: count }) => type !== 'C' || count > 0)
    .sort((a, b) => a.reward.priority - b.reward.priority || b.value - a.value || a.reward.code.localeCompare(b.reward.code));
}

const condition = fc
  .record({ product_ids: subset(PRODUCTS), product_group_ids: subset(GROUPS), brand_ids: subset(BRANDS), min_count: fc.integer({ min: 1, max: 3 }) })
  .filter((c) => c.product_ids.length + c.product_group_ids.length + c.brand_ids.length > 0);
const rewardInput = fc.record({
  priority: fc.integer({ min: 1, max: 3 }),
  code: fc.constantFrom('A', 'b', 'B', 'a-1', 'Z', 'é'),
  points_cost: fc.constantFrom('0', '5', '40'),
  conditions: fc.array(condition, { maxLength: 3 }),
  discount: fc.oneof(
    fc.record({ type: fc.constant('percent'), value: fc.integer({ min: 1, max: 100 }) }),
    fc.record({ type: fc.constantFrom('amount', 'final_price'), value: fc.constantFrom('0', '2.50', '30') }),
  ),
  is_automated: fc.boolean(),
  max_uses_per_bill: fc.integer({ min: 1, max: 3 }),
  store_ids: fc.subarray(STORES, { maxLength: 1 }),
  time_from: fc.constantFrom(undefined, '06:00:00', '22:00:00'),
});
const line = fc.record({
  product_id: fc.option(fc.constantFrom(...PRODUCTS)),
  product_group_id: fc.option(fc.constantFrom(...GROUPS)),
  brand_id: fc.option(fc.constantFrom(...BRANDS)),
  quantity_milli: fc.constantFrom(1000, 2000, 3000, 750, 0, -1000),
  unit_price_minor: fc.integer({ min: 0, max: 5000 }),
  paid_minor: fc.integer({ min: -2000, max: 9000 }),
  loyalty_off: fc.boolean(),
});
const bill = fc.record({
  store_id: fc.constantFrom(...STORES),
  day: fc.constant('2026-11-20'),
  time: fc.constantFrom('07:00:00', '12:00:00', '23:00:00'),
  lines: fc.array(line, { maxLength: 6 }).map((lines) => lines.map((l, n): BillLine => ({ ...l, bill_item_id: String(n + 1) }))),
});

type RewardInput = typeof rewardInput extends fc.Arbitrary<infer T> ? T : never;

function definitions(inputs: RewardInput[]): RewardDefinition[] {
  return inputs.map(({ time_from, ...input }, n) =>
    RewardDefinition.parse({ id: id(0xe5, n), name: `Reward ${n}`, ...input, ...(time_from ? { time_from, time_to: '10:00:00' } : {}) }),
  );
}

describe('reward evaluation', () => {
  it('finds the lines a reward matches, the uses its items allow and the discount of any number of uses as the plain statement does, bill after bill', () => {
    fc.assert(
      fc.property(
        fc.array(rewardInput, { minLength: 1, maxLength: 6 }),
        fc.array(bill, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 4 }),
        (inputs, bills, uses) => {
          const rewards = definitions(inputs);
          const matcher = new RewardMatcher(rewards, () => true);
          for (const b of bills) {
            const evaluation = matcher.evaluate(b.lines);
            for (const reward of rewards) {
              expect(matchingLines(reward, b.lines)).toEqual(referenceMatchingLines(reward, b.lines));
              expect(evaluation.usesByItems(reward)).toBe(referenceUsesByItems(reward, b.lines));
              expect(evaluation.discount(reward, uses)).toBe(referenceDiscount(reward, b.lines, uses));
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses to answer for lines it no longer holds, or for a reward of another catalog', () => {
    const [first, other] = definitions([
      {
        priority: 1,
        code: 'A',
        points_cost: '0',
        conditions: [],
        discount: { type: 'percent', value: 10 },
        is_automated: true,
        max_uses_per_bill: 1,
        store_ids: [],
        time_from: undefined,
      },
      {
        priority: 1,
        code: 'B',
        points_cost: '0',
        conditions: [],
        discount: { type: 'percent', value: 10 },
        is_automated: true,
        max_uses_per_bill: 1,
        store_ids: [],
        time_from: undefined,
      },
    ]);
    const matcher = new RewardMatcher([first!], () => true);
    const stale = matcher.evaluate([]);
    matcher.evaluate([]);
    expect(() => stale.usesByItems(first!)).toThrow(/matched other lines/);
    expect(() => matcher.evaluate([]).discount(other!, 1)).toThrow(/not in this matcher/);
  });

  it("sums, bill after bill on one matcher, the uses and the matching lines' cost of every reward as the plain statement does", () => {
    fc.assert(
      fc.property(fc.array(rewardInput, { minLength: 1, maxLength: 8 }), fc.array(bill, { minLength: 1, maxLength: 3 }), (inputs, bills) => {
        const rewards = definitions(inputs);
        const matcher = new RewardMatcher(rewards, () => true);
        for (const b of bills) {
          const met = matcher.match(b.lines);
          rewards.forEach((reward, position) => {
            const matching = referenceMatchingLines(reward, b.lines);
            expect(met.includes(position)).toBe(reward.conditions.length > 0 && matching.length > 0);
            expect(matcher.usesByItems(position)).toBe(referenceUsesByItems(reward, b.lines));
            if (reward.conditions.length > 0) expect(matcher.paidByMatching(position)).toBe(paidTotal(matching));
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('recommends, for every list type, what the plain statement recommends, in the same order', () => {
    fc.assert(
      fc.property(
        fc.array(rewardInput, { maxLength: 12 }),
        fc.array(bill, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0, 4000, 100_000),
        fc.constantFrom<RewardListType>('F', 'C', 'A'),
        (inputs, bills, balance, type) => {
          const rewards = definitions(inputs);
          const ranked = rankRewards(rewards);
          for (const b of bills) expect(recommendRewards(ranked, b, balance, type)).toEqual(referenceRecommend(rewards, b, balance, type));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('orders a list longer than an insertion sort takes (A on a large program) as the plain statement does', () => {
    fc.assert(
      fc.property(fc.array(rewardInput, { minLength: 300, maxLength: 400 }), bill, (inputs, b) => {
        // Without stores or hours, type A lists every reward.
        const rewards = definitions(inputs.map((input) => ({ ...input, store_ids: [], time_from: undefined })));
        const recommended = recommendRewards(rankRewards(rewards), b, 100_000, 'A');
        expect(recommended.length).toBeGreaterThan(256);
        expect(recommended).toEqual(referenceRecommend(rewards, b, 100_000, 'A'));
      }),
      { numRuns: 10 },
    );
  });

  describe('in the catalog', () => {
    const { node } = tempNode('loyaltyd-reward-evaluation-');
    const program = new ProgramService(node.db, new ProgramRepo(node.db), node.writes);
    const catalog = new RewardsCatalog(node.db, node.writes);

    it('the automated rewards a bill can meet are those without conditions and those a line meets, in order', () => {
      fc.assert(
        fc.property(fc.array(rewardInput, { minLength: 1, maxLength: 12 }), bill, (inputs, b) => {
          program.load({
            currency_id: 'CZK',
            point_value: '1',
            rewards: inputs.map(({ time_from: _, ...input }, n) => ({ id: id(0xe6, n), name: `Reward ${n}`, ...input })),
          });
          const expected = catalog
            .rewards()
            .filter((reward) => reward.is_automated && (reward.conditions.length === 0 || referenceMatchingLines(reward, b.lines).length > 0));
          expect(catalog.automatedMeetableBy(b.lines)).toEqual(expected);
        }),
        { numRuns: 100 },
      );
    });

    it('recommends from the loaded program what the plain statement recommends from its rewards', () => {
      fc.assert(
        fc.property(
          fc.array(rewardInput, { maxLength: 12 }),
          bill,
          fc.constantFrom(0, 4000),
          fc.constantFrom<RewardListType>('F', 'C', 'A'),
          (inputs, b, balance, type) => {
            program.load({
              currency_id: 'CZK',
              point_value: '1',
              rewards: inputs.map(({ time_from: _, ...input }, n) => ({ id: id(0xe7, n), name: `Reward ${n}`, ...input })),
            });
            expect(catalog.recommend(b, balance, type)).toEqual(referenceRecommend(catalog.rewards(), b, balance, type));
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
