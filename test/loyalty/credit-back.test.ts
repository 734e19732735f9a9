import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillLine } from '../../src/loyalty/bill.js';
import { creditBack } from '../../src/loyalty/credit-back.js';

const TWO_PERCENT = { percent_bp: 200 };

function line(paidMinor: number, loyaltyOff = false): BillLine {
  return {
    bill_item_id: '1',
    product_id: null,
    product_group_id: null,
    brand_id: null,
    quantity_milli: 1000,
    unit_price_minor: paidMinor,
    paid_minor: paidMinor,
    loyalty_off: loyaltyOff,
  };
}

describe('credit back', () => {
  it('is the share of what was paid, rounded down to the minor unit', () => {
    // 64.85 paid: 2 % = 1.297, so 1.29.
    expect(creditBack(TWO_PERCENT, 6485, [line(6485)])).toBe(129);
  });

  it('leaves out what loyalty_off items cost', () => {
    // 292 paid, of which 100 for a loyalty_off item: 2 % of 192 = 3.84.
    expect(creditBack(TWO_PERCENT, 29_200, [line(19_200), line(10_000, true)])).toBe(384);
  });

  it('is negative for a bill that pays out, rounded towards zero', () => {
    // A return of 100.55: 2 % = 2.011, so 2.01 taken back.
    expect(creditBack(TWO_PERCENT, -10_055, [line(-10_055)])).toBe(-201);
  });

  it('is nothing without the rule', () => {
    expect(creditBack(undefined, 10_000, [line(10_000)])).toBe(0);
  });

  it('returns in parts never take back more than the purchase gave', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 10_000 }),
        (parts, percentBp) => {
          const rule = { percent_bp: percentBp };
          const total = parts.reduce((sum, part) => sum + part, 0);
          const given = creditBack(rule, total, [line(total)]);
          const takenBack = parts.reduce((sum, part) => sum - creditBack(rule, -part, [line(-part)]), 0);
          expect(takenBack).toBeLessThanOrEqual(given);
        },
      ),
    );
  });
});
