/**
 * Turns a POS bill into the engine's bill: items matched to products by their plu ids
 * (the first id that names a product wins; an unmatched item still earns by amount),
 * the payment time read in any accepted form and placed in the store's day and time.
 */
import { badRequest, invalidParam, type InvalidParam } from '../../core/errors.js';
import type { Bill as EngineBill, BillLine } from '../../loyalty/bill.js';
import { formatTimestamp, parseTimestamp } from '../../core/time.js';
import type { CheckoutRepo, ProductMatch } from './checkout.repo.js';
import type { Bill, BillItem } from './checkout.schemas.js';
import type { MatchProduct, ProductMatches } from './product-matches.js';

export interface ReadBill {
  bill: EngineBill;
  paidAt: number;
}

export class BillReader {
  constructor(
    private readonly repo: CheckoutRepo,
    private readonly products: ProductMatches,
    private readonly timeZone: string,
  ) {}

  read(storeId: string, bill: Bill): ReadBill {
    if (!this.repo.hasStore(storeId)) throw invalidParam('store_id', 'not_found', storeId);
    const paidAt = parseTimestamp(bill.payment_time, this.timeZone);
    if (paidAt === undefined) throw invalidParam('bill.payment_time', 'invalid_value_format', bill.payment_time);
    const overpaid: InvalidParam[] = [];
    const matchProduct = this.products.lookup();
    const lines = bill.bill_items.map((item, index): BillLine => {
      // price × quantity, with the quantity in thousandths, rounded to the minor unit.
      const ceiling = Math.round((item.price * Math.abs(item.quantity)) / 1000);
      if (Math.abs(item.paid_amount) > ceiling) {
        overpaid.push({
          name: `bill.bill_items.${index}.paid_amount`,
          reason: 'item_price_lower_than_paid_amount',
          value: String(item.paid_amount / 100),
        });
      }
      const product = firstProduct(item, matchProduct);
      return {
        bill_item_id: item.bill_item_id,
        product_id: product?.id ?? null,
        product_group_id: product?.product_group_id ?? null,
        brand_id: product?.product_brand_id ?? null,
        quantity_milli: item.quantity,
        unit_price_minor: item.price,
        paid_minor: item.paid_amount,
        loyalty_off: item.loyalty_off,
      };
    });
    if (overpaid.length) throw badRequest(overpaid);
    const local = formatTimestamp(paidAt, this.timeZone);
    return { bill: { store_id: storeId, day: local.slice(0, 10), time: local.slice(11, 19), lines }, paidAt };
  }
}

function firstProduct(item: BillItem, matchProduct: MatchProduct): ProductMatch | undefined {
  for (const plu of item.plu_ids) {
    const product = matchProduct(plu.list_code, plu.code);
    if (product) return product;
  }
  return undefined;
}
