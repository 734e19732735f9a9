/**
 * A discount told line by line, as a till prints it (the specs' DiscountItem): a campaign
 * price belongs to its line; a reward's or a voucher's is shared among the lines it is given
 * on — a final price to the cheapest units it takes, as discountOn picks them, any other in
 * proportion to what each line pays, the remainders to the largest shares, so the lines add
 * up to the discount to the minor unit.
 */
import { wholeUnits, type BillLine } from './bill.js';
import type { Discount } from './program.schemas.js';

export interface LineDiscount {
  bill_item_id: string;
  amount_minor: number;
}

export function discountLines(discount: Discount, amountMinor: number, uses: number, eligible: BillLine[]): LineDiscount[] {
  const [first] = eligible;
  if (first === undefined) return [];
  // A voucher worth nothing on this bill is still told, on the first line it names.
  if (amountMinor <= 0) return [{ bill_item_id: first.bill_item_id, amount_minor: 0 }];
  const amounts = discount.type === 'final_price' ? unitsTaken(discount.value, uses, eligible) : proportional(amountMinor, eligible);
  return eligible.flatMap((line, index) => (amounts[index]! > 0 ? [{ bill_item_id: line.bill_item_id, amount_minor: amounts[index]! }] : []));
}

/** By line, what the final price takes off the `uses` cheapest whole units. */
function unitsTaken(finalPriceMinor: number, uses: number, eligible: BillLine[]): number[] {
  const units = eligible.flatMap((line, index) => Array.from({ length: wholeUnits(line) }, () => index));
  units.sort((a, b) => eligible[a]!.unit_price_minor - eligible[b]!.unit_price_minor);
  const amounts = eligible.map(() => 0);
  for (const index of units.slice(0, uses)) amounts[index]! += Math.max(0, eligible[index]!.unit_price_minor - finalPriceMinor);
  return amounts;
}

/** The amount shared by what each line pays; products in BigInt, as a bill's amounts multiplied can pass 2^53. */
function proportional(amountMinor: number, eligible: BillLine[]): number[] {
  const weights = eligible.map((line) => BigInt(Math.max(0, line.paid_minor)));
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  if (total === 0n) return eligible.map((_, index) => (index === 0 ? amountMinor : 0));
  const amount = BigInt(amountMinor);
  const shares = weights.map((weight) => (amount * weight) / total);
  const remainders = weights.map((weight, index) => ({ index, left: (amount * weight) % total }));
  let unshared = amount - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.left === b.left ? a.index - b.index : a.left > b.left ? -1 : 1));
  for (const { index } of remainders) {
    if (unshared === 0n) break;
    shares[index]! += 1n;
    unshared -= 1n;
  }
  return shares.map(Number);
}
