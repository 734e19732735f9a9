import { equals, ListQueries, type Filter } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CustomersRow, RewardsRow, StoresRow, VoucherApplicationsRow, VouchersRow } from '../../db/tables.generated.js';
import type { REWARD_SORT_FIELDS, VOUCHER_SORT_FIELDS } from './vouchers.schemas.js';

/**
 * A voucher with its first application by HLC that no cancellation released (voucher_releases):
 * the fold that decides where it was applied.
 */
const VOUCHER_FROM = `vouchers v LEFT JOIN voucher_applications a ON a.id = (
  SELECT x.id FROM voucher_applications x WHERE x.voucher_id = v.id
    AND NOT EXISTS (SELECT 1 FROM voucher_releases r WHERE r.application_id = x.id) ORDER BY x.hlc LIMIT 1)`;
const VOUCHER_COLUMNS =
  'v.id, v.customer_id, v.reward_id, v.code, v.value_minor, v.valid_from, v.valid_to, v.reward_group, v.state, v.last_change, a.store_id AS applied_store_id, a.applied_date';

const VOUCHER_SORTABLE: Record<(typeof VOUCHER_SORT_FIELDS)[number], string> = { voucher_id: 'v.id', customer_id: 'v.customer_id', code: 'v.code' };
const REWARD_COLUMNS = 'id, code, name, priority, points_cost_milli, is_automated, details, state, last_change';
const REWARD_SORTABLE: Record<(typeof REWARD_SORT_FIELDS)[number], string> = { reward_id: 'id', code: 'code', priority: 'priority' };

/** A voucher with where and when it was first applied, by HLC (null for one not applied). */
export type VoucherRow = Pick<
  VouchersRow,
  'id' | 'customer_id' | 'reward_id' | 'code' | 'value_minor' | 'valid_from' | 'valid_to' | 'reward_group' | 'state' | 'last_change'
> & {
  applied_store_id: VoucherApplicationsRow['store_id'] | null;
  applied_date: VoucherApplicationsRow['applied_date'] | null;
};
export type RewardRow = Omit<RewardsRow, 'hlc'>;

export interface VoucherFilters {
  customer_id?: string;
  code?: string;
  store_id?: string;
  validAt?: { at: string; valid: boolean };
  applied?: boolean;
}

export class VouchersRepo {
  private readonly voucher;
  private readonly reward;
  private readonly storeExists;
  private readonly customerExists;
  private readonly byCode;
  private readonly lists;

  constructor(db: Db) {
    this.voucher = db.prepare<[string], VoucherRow>(`SELECT ${VOUCHER_COLUMNS} FROM ${VOUCHER_FROM} WHERE v.id = ?`);
    this.reward = db.prepare<[string], RewardRow>(`SELECT ${REWARD_COLUMNS} FROM rewards WHERE id = ?`);
    this.storeExists = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
    this.customerExists = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
    this.byCode = db.prepare<[string], Pick<VouchersRow, 'id'>>('SELECT id FROM vouchers WHERE code = ? LIMIT 1');
    this.lists = new ListQueries(db);
  }

  voucherById(id: string): VoucherRow | undefined {
    return this.voucher.get(id);
  }

  rewardById(id: string): RewardRow | undefined {
    return this.reward.get(id);
  }

  hasStore(id: string): boolean {
    return this.storeExists.get(id) !== undefined;
  }

  hasCustomer(id: string): boolean {
    return this.customerExists.get(id) !== undefined;
  }

  voucherIdByCode(code: string): string | undefined {
    return this.byCode.get(code)?.id;
  }

  vouchers(filters: VoucherFilters, paging: Paging): Page<VoucherRow> {
    return this.lists.page(
      {
        from: VOUCHER_FROM,
        select: VOUCHER_COLUMNS,
        filters: [
          equals('v.customer_id', filters.customer_id),
          equals('v.code', filters.code),
          equals('a.store_id', filters.store_id),
          validity(filters.validAt),
          filters.applied === undefined ? undefined : { sql: filters.applied ? 'a.id IS NOT NULL' : 'a.id IS NULL', params: [] },
        ],
        sortable: VOUCHER_SORTABLE,
        defaultSort: 'voucher_id',
        listedAs: 'v',
      },
      paging,
    );
  }

  rewards(paging: Paging): Page<RewardRow> {
    return this.lists.page({ from: 'rewards', select: REWARD_COLUMNS, filters: [], sortable: REWARD_SORTABLE, defaultSort: 'reward_id' }, paging);
  }

  insertVoucher(tx: WriteTransaction, row: WrittenRow<'vouchers'>): void {
    tx.insert('vouchers', row);
  }

  insertApplication(tx: WriteTransaction, row: WrittenRow<'voucher_applications'>): void {
    tx.insert('voucher_applications', row);
  }
}

function validity(filter: VoucherFilters['validAt']): Filter {
  if (!filter) return undefined;
  const inside = '(v.valid_from IS NULL OR v.valid_from <= ?) AND (v.valid_to IS NULL OR v.valid_to >= ?)';
  return { sql: filter.valid ? `(${inside})` : `NOT (${inside})`, params: [filter.at, filter.at] };
}
