/**
 * Credit back (DESIGN §6): the program's share, in basis points, of what a bill paid in
 * money — after its discounts, the points and the credit it was paid with — less what its
 * loyalty_off items cost. Floored to the minor unit towards zero: a purchase never gives
 * back more than its share, and returns never take back more than the purchase gave. A
 * bill that pays out (a return) gives a negative amount: credit taken back.
 */
import type { BillLine } from './bill.js';
import type { CreditBack } from './program.schemas.js';

export function creditBack(rule: CreditBack | undefined, paidMinor: number, lines: readonly BillLine[]): number {
  if (!rule) return 0;
  const base = paidMinor - lines.filter((line) => line.loyalty_off).reduce((sum, line) => sum + line.paid_minor, 0);
  const amountMinor = Math.floor((Math.abs(base) * rule.percent_bp) / 10_000);
  return base < 0 ? -amountMinor : amountMinor;
}
