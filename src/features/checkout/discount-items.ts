/** accept-payment's discounts as DiscountItems: each discount once per line it is given on. */
import type { BillLine } from '../../loyalty/bill.js';
import type { AppliedDiscount } from '../../loyalty/pricing.js';
import { fromMinor, hundredthsText } from '../../core/money.js';
import type { DiscountItem } from './checkout.schemas.js';

export function discountItems(discounts: AppliedDiscount[], lines: BillLine[]): DiscountItem[] {
  const paidByLine = new Map(lines.map((line) => [line.bill_item_id, line.paid_minor]));
  return discounts.flatMap((discount) =>
    discount.lines.map(({ bill_item_id, amount_minor }) => ({
      bill_item_id,
      discount_code: discount.code,
      discount_value: hundredthsText(amount_minor),
      discount_percent: hundredthsText(discount.percent_hundredths ?? shareOfLine(amount_minor, paidByLine.get(bill_item_id) ?? 0)),
      description: discount.name,
      code: discount.code,
      name: discount.name,
      type: discount.source,
      discount: fromMinor(amount_minor),
      bill_item_ids: [bill_item_id],
    })),
  );
}

/** What the amount takes of what the line pays, in hundredths of a percent, rounded half up. */
function shareOfLine(amountMinor: number, paidMinor: number): number {
  return paidMinor > 0 ? Math.round((amountMinor * 10_000) / paidMinor) : 0;
}
