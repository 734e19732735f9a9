/**
 * A bill as the checkout engine sees it: lines matched to products (or not), quantities
 * in thousandths of a unit, money in minor units, and the store-local day and time of
 * payment that reward windows are checked against.
 */
export interface BillLine {
  bill_item_id: string;
  product_id: string | null;
  product_group_id: string | null;
  brand_id: string | null;
  quantity_milli: number;
  /** Price of one unit before discounts. */
  unit_price_minor: number;
  /** What the line costs in total, as sent by the POS. */
  paid_minor: number;
  /** Excluded from earning and from rewards (interface.md BillItem.loyalty_off). */
  loyalty_off: boolean;
}

export interface Bill {
  store_id: string;
  /** `YYYY-MM-DD` and `HH:MM:SS` of payment in the store's time zone. */
  day: string;
  time: string;
  lines: BillLine[];
}

/** Whole units on a line; a weighed item (0.750 kg) counts as no whole unit. */
export function wholeUnits(line: BillLine): number {
  return Math.floor(Math.abs(line.quantity_milli) / 1000);
}
