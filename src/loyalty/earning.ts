/**
 * Points a bill earns by the program's earning rules (DESIGN §6), in thousandths of a point.
 * Amount rules count whole `per_amount`s of the bill's earning total, where a group
 * multiplier weighs its group's lines; per-unit rules count whole units. Items marked
 * loyalty_off earn nothing. Returned items (negative lines) are counted the same way and
 * give a negative result, so a return takes back what those items earned.
 */
import { wholeUnits, type BillLine } from './bill.js';
import type { EarningRule } from './program.schemas.js';

export function earnedPointsMilli(rules: EarningRule[], lines: BillLine[]): number {
  const bought = lines.filter((line) => !line.loyalty_off && line.quantity_milli > 0);
  const returned = lines.filter((line) => !line.loyalty_off && line.quantity_milli < 0).map(asBought);
  return earnedBy(rules, bought) - earnedBy(rules, returned);
}

function asBought(line: BillLine): BillLine {
  return { ...line, quantity_milli: -line.quantity_milli, paid_minor: Math.abs(line.paid_minor) };
}

function earnedBy(rules: EarningRule[], lines: BillLine[]): number {
  if (lines.length === 0) return 0;
  const multipliers = new Map<string, number>();
  for (const rule of rules) if (rule.kind === 'group_multiplier') multipliers.set(rule.product_group_id, rule.percent);
  // Money weighed by percent, so that multipliers stay in integers.
  const weighted = lines.reduce((sum, line) => sum + line.paid_minor * (multipliers.get(line.product_group_id ?? '') ?? 100), 0);
  let pointsMilli = 0;
  for (const rule of rules) {
    switch (rule.kind) {
      case 'per_currency_unit':
        pointsMilli += Math.floor(weighted / (rule.per_amount * 100)) * rule.points;
        break;
      case 'per_product':
        pointsMilli += unitsWhere(lines, (line) => line.product_id === rule.product_id) * rule.points_per_unit;
        break;
      case 'per_product_group':
        pointsMilli += unitsWhere(lines, (line) => line.product_group_id === rule.product_group_id) * rule.points_per_unit;
        break;
      case 'group_multiplier':
        break;
    }
  }
  return pointsMilli;
}

function unitsWhere(lines: BillLine[], matches: (line: BillLine) => boolean): number {
  return lines.filter(matches).reduce((sum, line) => sum + wholeUnits(line), 0);
}
