/**
 * Money and points as integers (DESIGN §3): money in minor units (scale 2), points in
 * thousandths (scale 3). Inputs arrive as JSON numbers or numeric strings and are read
 * digit by digit, never through binary floating-point arithmetic; digits beyond the scale
 * are rounded half away from zero. Outputs are JSON numbers again.
 */
import { z } from 'zod';

export const MONEY_SCALE = 2;
export const POINTS_SCALE = 3;

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** The integer count of 10^-scale units in a decimal, or undefined when it is not one. */
export function toScaled(value: number | string, scale: number): number | undefined {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  if (text === undefined) return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const kept = (fraction + '0'.repeat(scale)).slice(0, scale);
  let units = Number(whole) * 10 ** scale + Number(kept || '0');
  if (fraction.length > scale && Number(fraction[scale]) >= 5) units += 1;
  if (!Number.isSafeInteger(units)) return undefined;
  return sign === '-' && units !== 0 ? -units : units;
}

export function fromScaled(units: number, scale: number): number {
  return units / 10 ** scale;
}

export const toMinor = (value: number | string) => toScaled(value, MONEY_SCALE);
export const fromMinor = (minor: number) => fromScaled(minor, MONEY_SCALE);
export const toMilli = (value: number | string) => toScaled(value, POINTS_SCALE);
export const fromMilli = (milli: number) => fromScaled(milli, POINTS_SCALE);

function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  // Shortest round-trip text; toFixed only for the exponent forms of tiny or huge numbers.
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : text;
}

function scaledSchema(scale: number, what: string) {
  return z.union([z.number(), z.string()]).transform((value, context) => {
    const units = toScaled(value, scale);
    if (units === undefined) {
      context.addIssue({ code: 'custom', message: `must be a decimal ${what}`, params: { reason: 'invalid_value_format' } });
      return z.NEVER;
    }
    return units;
  });
}

/** A money amount in, as integer minor units out. */
export const Money = scaledSchema(MONEY_SCALE, 'amount of money');
/** A points amount in, as integer thousandths of a point out. */
export const Points = scaledSchema(POINTS_SCALE, 'number of points');
