/**
 * The rewards catalog's index by product, group and brand (src/loyalty/rewards-catalog.ts)
 * must never leave out a reward a bill can meet: for any program and any bill, the automated
 * rewards it offers accept-payment are exactly those without conditions and those with a
 * condition naming one of the bill's products, groups or brands, in the catalog's order. Programs are loaded into
 * a real node's database, as `loyaltyd program load` does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillLine } from '../../src/loyalty/bill.js';
import { ProgramRepo } from '../../src/loyalty/program.repo.js';
import type { RewardDefinition } from '../../src/loyalty/program.schemas.js';
import { ProgramService } from '../../src/loyalty/program.service.js';
import { RewardsCatalog } from '../../src/loyalty/rewards-catalog.js';
import { tempNode } from '../support/temp-node.js';
import { id } from '../support/ids.js';
import { subset } from '../support/arbitraries.js';

const PRODUCTS = [1, 2, 3, 4].map((n) => id(0xa1, n));
const GROUPS = [1, 2, 3].map((n) => id(0xa2, n));
const BRANDS = [1, 2, 3].map((n) => id(0xa3, n));
const REWARDS = 12;

const { node } = tempNode('loyaltyd-catalog-');
const program = new ProgramService(node.db, new ProgramRepo(node.db), node.writes);
const catalog = new RewardsCatalog(node.db, node.writes);

const condition = fc
  .record({ product_ids: subset(PRODUCTS), product_group_ids: subset(GROUPS), brand_ids: subset(BRANDS) })
  .filter((c) => c.product_ids.length + c.product_group_ids.length + c.brand_ids.length > 0);
const rewards = fc.array(
  fc.record({ priority: fc.integer({ min: 1, max: 9 }), conditions: fc.array(condition, { maxLength: 2 }), is_automated: fc.boolean() }),
  {
    minLength: REWARDS,
    maxLength: REWARDS,
  },
);
const line = fc.record({
  product_id: fc.option(fc.constantFrom(...PRODUCTS)),
  product_group_id: fc.option(fc.constantFrom(...GROUPS)),
  brand_id: fc.option(fc.constantFrom(...BRANDS)),
});

function billLine(item: { product_id: string | null; product_group_id: string | null; brand_id: string | null }, index: number): BillLine {
  return { ...item, bill_item_id: String(index + 1), quantity_milli: 1000, unit_price_minor: 100, paid_minor: 100, loyalty_off: false };
}

function names(reward: RewardDefinition, lines: BillLine[]): boolean {
  return reward.conditions.some((c) =>
    lines.some(
      (l) =>
        (l.product_id !== null && c.product_ids.includes(l.product_id)) ||
        (l.product_group_id !== null && c.product_group_ids.includes(l.product_group_id)) ||
        (l.brand_id !== null && c.brand_ids.includes(l.brand_id)),
    ),
  );
}

describe('the rewards catalog', () => {
  it('offers a bill every automated reward it can meet and every one without conditions, in catalog order', () => {
    fc.assert(
      fc.property(rewards, fc.array(line, { maxLength: 5 }), (definitions, items) => {
        program.load({
          currency_id: 'CZK',
          point_value: '1',
          rewards: definitions.map((definition, n) => ({
            id: id(0xa4, n),
            code: `R${n}`,
            name: `Reward ${n}`,
            discount: { type: 'percent', value: 10 },
            ...definition,
          })),
        });
        const lines = items.map(billLine);
        const expected = catalog.rewards().filter((reward) => reward.is_automated && (reward.conditions.length === 0 || names(reward, lines)));
        expect(catalog.automatedMeetableBy(lines).map((reward) => reward.code)).toEqual(expected.map((reward) => reward.code));
      }),
      { numRuns: 100 },
    );
  });
});
