import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillLine } from '../../src/loyalty/bill.js';
import { discountLines } from '../../src/loyalty/discount-lines.js';

function line(id: string, paidMinor: number, units = 1): BillLine {
  return {
    bill_item_id: id,
    product_id: null,
    product_group_id: null,
    brand_id: null,
    quantity_milli: units * 1000,
    unit_price_minor: paidMinor / units,
    paid_minor: paidMinor,
    loyalty_off: false,
  };
}

describe('a discount told by line', () => {
  it('shares an amount in proportion to what each line pays, the remainders to the largest shares', () => {
    // 1.00 off three lines of 1.00: 0.33 each and the cent left to the first.
    expect(discountLines({ type: 'amount', value: 100 }, 100, 1, [line('a', 100), line('b', 100), line('c', 100)])).toEqual([
      { bill_item_id: 'a', amount_minor: 34 },
      { bill_item_id: 'b', amount_minor: 33 },
      { bill_item_id: 'c', amount_minor: 33 },
    ]);
    // 0.10 off 0.99 and 0.01: 0.0990 and 0.0010, so 0.10 on the first and nothing told on the second.
    expect(discountLines({ type: 'percent', value: 10 }, 10, 1, [line('a', 99), line('b', 1)])).toEqual([{ bill_item_id: 'a', amount_minor: 10 }]);
  });

  it('gives a final price to the cheapest units it takes', () => {
    // Two uses at 0.00 of three units: the 0.60 and one 0.65 of the line of two.
    expect(discountLines({ type: 'final_price', value: 0 }, 125, 2, [line('dear', 130, 2), line('cheap', 60)])).toEqual([
      { bill_item_id: 'dear', amount_minor: 65 },
      { bill_item_id: 'cheap', amount_minor: 60 },
    ]);
  });

  it('adds up to the discount, whatever the lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (paid, amount) => {
          const lines = discountLines(
            { type: 'amount', value: amount },
            amount,
            1,
            paid.map((minor, index) => line(String(index), minor)),
          );
          expect(lines.reduce((sum, told) => sum + told.amount_minor, 0)).toBe(amount);
        },
      ),
    );
  });
});
