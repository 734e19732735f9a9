import type { Db } from '../../db/open.js';
import { isSqlite, prepareOnSqlite } from '../../db/sqlite.js';
import type {
  CampaignProductsRow,
  CustomersRow,
  ProductsRow,
  PurchaseAssignmentsRow,
  PurchasesRow,
  RewardsRow,
  StoresRow,
  VoucherApplicationsRow,
  VouchersRow,
} from '../../db/tables.generated.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';

export type ProductMatch = Pick<ProductsRow, 'id' | 'product_group_id' | 'product_brand_id'>;

type CampaignColumns = Pick<CampaignProductsRow, 'id' | 'product_id' | 'value_minor' | 'value_type_id' | 'valid_from' | 'valid_to'> & {
  /** A JSON array of store ids; empty for every store. */
  store_ids: string;
};

/** An active campaign product the cash desk may show, with the stores it is limited to. */
export type CashDeskCampaignRow = CampaignColumns & {
  /** 0 when display_in is no JSON SQLite reads: it cannot tell whether the cash desk shows it. */
  well_formed: 0 | 1;
};

/** The names of the cash desk among a campaign product's places (display_in). */
const CASH_DESK = new Set(['cash desk', 'cash_desk']);

/**
 * PostgreSQL's twin of the cash desk's choice that SQLite makes in SQL: PostgreSQL 15 has no
 * test of JSON text that does not fail the statement, so the places are read here. Kept is a
 * product whose places are no JSON (flagged), or among whose values, as json_each reads them
 * (an array's elements, an object's members, a scalar alone), the cash desk is. SQLite's
 * json_valid(…, 2) also takes JSON5, which no writer of display_in makes.
 */
function shownAtCashDesk(row: CampaignColumns & Pick<CampaignProductsRow, 'display_in'>): CashDeskCampaignRow | undefined {
  const { display_in: displayIn, ...campaign } = row;
  let places: unknown;
  try {
    places = JSON.parse(displayIn);
  } catch {
    return { ...campaign, well_formed: 0 };
  }
  const values = Array.isArray(places) ? places : places !== null && typeof places === 'object' ? Object.values(places) : [places];
  return values.some((place) => typeof place === 'string' && CASH_DESK.has(place)) ? { ...campaign, well_formed: 1 } : undefined;
}

export type PurchaseRecord = Pick<
  PurchasesRow,
  'id' | 'customer_id' | 'store_id' | 'external_purchase_id' | 'bill_number' | 'total_price_minor' | 'canceled' | 'bill'
>;

/** A voucher with how many of its applications no cancellation released. */
export type VoucherRecord = Pick<VouchersRow, 'id' | 'code' | 'customer_id' | 'reward_id' | 'valid_from' | 'valid_to'> & { applications: number };

export class CheckoutRepo {
  private readonly productByPlu;
  private readonly cashDeskCampaigns: () => CashDeskCampaignRow[];
  private readonly purchaseByBill;
  private readonly purchaseByNumber;
  private readonly assignment;
  private readonly storeExists;
  private readonly customerExists;
  private readonly voucherByCode;
  private readonly cancellation;
  private readonly rewardCode;
  private readonly applicationsOf;

  constructor(db: Db) {
    this.productByPlu = db.prepare<[string, string], ProductMatch>(
      `SELECT p.id, p.product_group_id, p.product_brand_id FROM product_external_ids x JOIN products p ON p.id = x.product_id
       WHERE x.list_code = ? AND x.code = ? AND p.state = 1`,
    );
    // Campaign products shown at the cash desk, in id order; a display_in SQLite cannot read
    // is kept and flagged rather than failing the whole list.
    if (isSqlite(db)) {
      const shown = prepareOnSqlite<[], CashDeskCampaignRow>(
        db,
        `SELECT c.id, c.product_id, c.value_minor, c.value_type_id, c.valid_from, c.valid_to, json_valid(c.display_in, 2) AS well_formed,
                (SELECT json_group_array(s.store_id) FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id) AS store_ids
         FROM campaign_products c
         WHERE c.state = 1
           AND CASE WHEN json_valid(c.display_in, 2) THEN EXISTS (SELECT 1 FROM json_each(c.display_in) d WHERE d.value IN ('cash desk', 'cash_desk')) ELSE 1 END
         ORDER BY c.id`,
      );
      this.cashDeskCampaigns = () => shown.all();
    } else {
      const active = db.prepare<[], CampaignColumns & Pick<CampaignProductsRow, 'display_in'>>(
        `SELECT c.id, c.product_id, c.value_minor, c.value_type_id, c.valid_from, c.valid_to, c.display_in,
                (SELECT CAST(coalesce(json_agg(s.store_id), '[]') AS text) FROM campaign_product_store_records s WHERE s.campaign_product_id = c.id) AS store_ids
         FROM campaign_products c
         WHERE c.state = 1
         ORDER BY c.id`,
      );
      this.cashDeskCampaigns = () => active.all().flatMap((row) => shownAtCashDesk(row) ?? []);
    }
    const purchaseColumns = 'id, customer_id, store_id, external_purchase_id, bill_number, total_price_minor, canceled, bill';
    this.purchaseByBill = db.prepare<[string, string], PurchaseRecord>(
      `SELECT ${purchaseColumns} FROM purchases WHERE store_id = ? AND external_purchase_id = ?`,
    );
    this.purchaseByNumber = db.prepare<[string, string], PurchaseRecord>(
      `SELECT ${purchaseColumns} FROM purchases WHERE store_id = ? AND bill_number = ? AND canceled = 0 ORDER BY id LIMIT 1`,
    );
    this.assignment = db.prepare<[string], Pick<PurchaseAssignmentsRow, 'customer_id'>>(
      'SELECT customer_id FROM purchase_assignments WHERE purchase_id = ? ORDER BY hlc LIMIT 1',
    );
    this.storeExists = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
    this.customerExists = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
    this.cancellation = db.prepare<[string, string], Pick<PurchasesRow, 'id'>>(
      'SELECT id FROM purchases WHERE cancels_purchase_id = ? AND id != ? LIMIT 1',
    );
    this.rewardCode = db.prepare<[string], Pick<RewardsRow, 'id'>>('SELECT id FROM rewards WHERE code = ? LIMIT 1');
    this.applicationsOf = db.prepare<[string], Pick<VoucherApplicationsRow, 'id' | 'voucher_id'>>(
      `SELECT a.id, a.voucher_id FROM voucher_applications a
       WHERE a.purchase_id = ? AND NOT EXISTS (SELECT 1 FROM voucher_releases r WHERE r.application_id = a.id) ORDER BY a.id`,
    );
    this.voucherByCode = db.prepare<[string], VoucherRecord>(
      `SELECT v.id, v.code, v.customer_id, v.reward_id, v.valid_from, v.valid_to,
              (SELECT count(*) FROM voucher_applications a WHERE a.voucher_id = v.id
                 AND NOT EXISTS (SELECT 1 FROM voucher_releases r WHERE r.application_id = a.id)) AS applications
       FROM vouchers v WHERE v.code = ? AND v.state = 1 ORDER BY v.id LIMIT 1`,
    );
  }

  /** A purchase that cancels this one, other than `except` (the cancellation being checked). */
  cancellationOf(purchaseId: string, except = ''): string | undefined {
    return this.cancellation.get(purchaseId, except)?.id;
  }

  voucher(code: string): VoucherRecord | undefined {
    return this.voucherByCode.get(code);
  }

  hasRewardCode(code: string): boolean {
    return this.rewardCode.get(code) !== undefined;
  }

  /** The vouchers a purchase used and no cancellation gave back. */
  voucherApplicationsOf(purchaseId: string): { id: string; voucher_id: string }[] {
    return this.applicationsOf.all(purchaseId);
  }

  productByPluId(listCode: string, code: string): ProductMatch | undefined {
    return this.productByPlu.get(listCode, code);
  }

  cashDeskCampaignRows(): CashDeskCampaignRow[] {
    return this.cashDeskCampaigns();
  }

  purchaseByStoreBill(storeId: string, billId: string): PurchaseRecord | undefined {
    return this.purchaseByBill.get(storeId, billId);
  }

  purchaseByBillNumber(storeId: string, billNumber: string): PurchaseRecord | undefined {
    return this.purchaseByNumber.get(storeId, billNumber);
  }

  /** The customer a purchase belongs to: the first assignment by HLC wins over a later one. */
  assignedCustomer(purchase: PurchaseRecord): string | null {
    return purchase.customer_id ?? this.assignment.get(purchase.id)?.customer_id ?? null;
  }

  hasStore(id: string): boolean {
    return this.storeExists.get(id) !== undefined;
  }

  hasCustomer(id: string): boolean {
    return this.customerExists.get(id) !== undefined;
  }

  insert<T extends 'purchases' | 'purchase_items' | 'purchase_assignments' | 'voucher_applications' | 'voucher_releases'>(
    tx: WriteTransaction,
    table: T,
    row: WrittenRow<T>,
  ): void {
    tx.insert(table, row);
  }
}
