/**
 * Money and points as integers (DESIGN §3): money in minor units (scale 2), points in
 * thousandths (scale 3). Inputs arrive as JSON numbers or numeric strings and are read
 * digit by digit, never through binary floating-point arithmetic; digits beyond the scale
 * are rounded half away from zero. Outputs are JSON numbers again.
 */
import { z } from 'zod';

export const MONEY_SCALE = 2;
export const POINTS_SCALE = 3;

const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;

/**
 * The integer count of 10^-scale units in a decimal (`[+-]digits[.digits]`), or undefined
 * when it is not one. Every cash-desk body carries a dozen amounts, so the digits are read
 * in one pass rather than through a regular expression and substrings.
 */
export function toScaled(value: number | string, scale: number): number | undefined {
  // A whole number needs no digits read; -0 is read as 0, as its text "0" is.
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    const units = value * 10 ** scale;
    return Number.isSafeInteger(units) ? units || 0 : undefined;
  }
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  return text === undefined ? undefined : scaledDigits(text, scale);
}

function scaledDigits(text: string, scale: number): number | undefined {
  const sign = text.charCodeAt(0);
  let index = sign === PLUS || sign === MINUS ? 1 : 0;
  const wholeStart = index;
  let units = 0;
  for (let digit = digitAt(text, index); digit >= 0; digit = digitAt(text, ++index)) units = units * 10 + digit;
  if (index === wholeStart) return undefined;
  let fractionDigits = 0;
  let roundsUp = false;
  if (index < text.length) {
    if (text.charCodeAt(index) !== DOT) return undefined;
    const fractionStart = ++index;
    for (let digit = digitAt(text, index); digit >= 0; digit = digitAt(text, ++index)) {
      const position = index - fractionStart;
      if (position < scale) units = units * 10 + digit;
      // Digits beyond the scale round half away from zero: only the first of them decides.
      else if (position === scale) roundsUp = digit >= 5;
    }
    if (index === fractionStart || index < text.length) return undefined;
    fractionDigits = Math.min(index - fractionStart, scale);
  }
  units *= 10 ** (scale - fractionDigits);
  if (roundsUp) units += 1;
  if (!Number.isSafeInteger(units)) return undefined;
  return sign === MINUS && units !== 0 ? -units : units;
}

/** The digit at `index`, or -1 past the end or at any other character. */
function digitAt(text: string, index: number): number {
  const digit = text.charCodeAt(index) - ZERO;
  return digit >= 0 && digit <= 9 ? digit : -1;
}

export function fromScaled(units: number, scale: number): number {
  return units / 10 ** scale;
}

/** Integer units of 10^-2 as decimal text with both places, `7.00`, for the fields the specs type as strings. */
export function hundredthsText(units: number): string {
  const whole = Math.abs(units);
  return `${units < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
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
