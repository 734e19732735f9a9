/**
 * Amounts are read digit by digit (src/core/money.ts). The reader must agree, for any text and
 * any JSON number, with its statement as a regular expression — the reference below —
 * including rounding half away from zero past the scale, signs, zeros and the limits of
 * safe integers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toScaled } from '../../src/core/money.js';

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

function referenceScaled(value: number | string, scale: number): number | undefined {
  let text: string | undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
    if (/e/i.test(text)) text = value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
  } else {
    text = value.trim();
  }
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const kept = (fraction + '0'.repeat(scale)).slice(0, scale);
  let units = Number(whole) * 10 ** scale + Number(kept || '0');
  if (fraction.length > scale && Number(fraction[scale]) >= 5) units += 1;
  if (!Number.isSafeInteger(units)) return undefined;
  return sign === '-' && units !== 0 ? -units : units;
}

const decimalText = fc.stringMatching(/^\s{0,2}[+-]?\d{0,18}(\.\d{0,6})?\s{0,2}$/);
const anyText = fc.string({ unit: fc.constantFrom(...'0123456789.+-eE x\t\u00a0'.split('')), maxLength: 24 });
const anyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.double({ min: -1e6, max: 1e6 }),
  fc.constantFrom(-0, 0.005, 1.005, 1e-7, 1e21, 2 ** 53, 2 ** 53 - 1, 90071992547409.91),
);

describe('reading amounts', () => {
  it('reads decimals the regular expression reads, for money and for points', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText, anyText, anyNumber), fc.constantFrom(2, 3), (value, scale) => {
        expect(toScaled(value, scale)).toBe(referenceScaled(value, scale));
      }),
      { numRuns: 20_000 },
    );
  });

  it('rounds half away from zero past the scale and reads -0 as 0', () => {
    expect(toScaled('1.005', 2)).toBe(101);
    expect(toScaled('-1.005', 2)).toBe(-101);
    expect(toScaled('1.0049', 2)).toBe(100);
    expect(toScaled(0.125, 2)).toBe(13);
    expect(toScaled(-0, 2)).toBe(0);
    expect(Object.is(toScaled('-0.001', 2), 0)).toBe(true);
    expect(toScaled(' 12.5 ', 3)).toBe(12_500);
  });

  it('refuses what is no plain decimal or no safe integer once scaled', () => {
    for (const value of [
      '',
      ' ',
      '+',
      '-',
      '.5',
      '5.',
      '1e3',
      '1.2.3',
      '0x10',
      '1 000',
      '١٢',
      'NaN',
      '90071992547409.92',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
    ]) {
      expect(toScaled(value, 2), String(value)).toBeUndefined();
    }
  });
});
