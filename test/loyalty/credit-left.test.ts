import { describe, expect, it } from 'vitest';
import { creditLeftOn } from '../../src/loyalty/credit-left.js';

describe('what each credit collection has left', () => {
  const newestFirst = [
    { id: 'c3', amount_minor: 500 },
    { id: 'c2', amount_minor: 1000 },
    { id: 'c1', amount_minor: 2000 },
  ];

  it('rests the balance on the newest collections, spends having taken the oldest first', () => {
    expect(Object.fromEntries(creditLeftOn(1200, newestFirst))).toEqual({ c3: 500, c2: 700, c1: 0 });
  });

  it('leaves every collection whole when nothing was spent, and adds up to the balance', () => {
    const left = creditLeftOn(3500, newestFirst);
    expect(Object.fromEntries(left)).toEqual({ c3: 500, c2: 1000, c1: 2000 });
    expect([...left.values()].reduce((total, amount) => total + amount, 0)).toBe(3500);
  });

  it('leaves nothing on any collection when the balance is negative (credit spent twice offline)', () => {
    expect(Object.fromEntries(creditLeftOn(-300, newestFirst))).toEqual({ c3: 0, c2: 0, c1: 0 });
  });
});
