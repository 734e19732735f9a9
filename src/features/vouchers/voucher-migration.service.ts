/**
 * Vouchers a chain brings from its previous system (`loyaltyd import vouchers`). The API
 * never writes a voucher itself; an imported one keeps its id and code, and one already used
 * there arrives with its application, so the till cannot take it a second time.
 */
import type { WritePath } from '../../db/write-path.js';
import { badRequest, invalidParam, type InvalidParam } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import type { VouchersRepo } from './vouchers.repo.js';
import type { ImportedVoucher } from './vouchers.schemas.js';

export class VoucherMigrationService {
  constructor(
    private readonly repo: VouchersRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  importRecord(record: ImportedVoucher): void {
    const id = record.voucher_id ?? this.newId();
    if (this.repo.voucherById(id)) throw invalidParam('voucher_id', 'already_exists', id);
    // The till finds a voucher by its code, so a code names one voucher.
    if (this.repo.voucherIdByCode(record.code) !== undefined) throw invalidParam('code', 'already_exists', record.code);
    this.assertReferencesExist(record);
    const validFrom = this.instant('valid_from', record.valid_from);
    const validTo = this.instant('valid_to', record.valid_to);
    if (validFrom !== null && validTo !== null && validFrom > validTo) {
      throw invalidParam('valid_to', 'not_allowed_value', record.valid_to ?? undefined, 'valid_to is before valid_from');
    }
    const appliedDate = this.instant('applied_date', record.applied_date);
    if (appliedDate === null && record.store_id) {
      throw invalidParam('applied_date', 'required', undefined, 'store_id names where the voucher was applied; give applied_date with it');
    }
    const voucher = {
      id,
      customer_id: record.customer_id ?? null,
      reward_id: record.reward_id ?? null,
      code: record.code,
      value_minor: record.value ?? 0,
      valid_from: validFrom,
      valid_to: validTo,
      reward_group: record.reward_group ?? null,
      state: record.state ?? 1,
    };
    const application =
      appliedDate === null
        ? undefined
        : { id: this.newId(), voucher_id: id, store_id: record.store_id ?? null, purchase_id: null, applied_date: appliedDate };
    this.writes.write(null, (tx) => {
      this.repo.insertVoucher(tx, voucher);
      if (application) this.repo.insertApplication(tx, application);
    });
  }

  private assertReferencesExist(record: ImportedVoucher): void {
    const missing: InvalidParam[] = [];
    if (record.customer_id && !this.repo.hasCustomer(record.customer_id))
      missing.push({ name: 'customer_id', reason: 'not_found', value: record.customer_id });
    if (record.reward_id && !this.repo.rewardById(record.reward_id))
      missing.push({ name: 'reward_id', reason: 'not_found', value: record.reward_id });
    if (record.store_id && !this.repo.hasStore(record.store_id)) missing.push({ name: 'store_id', reason: 'not_found', value: record.store_id });
    if (missing.length) throw badRequest(missing);
  }

  /** The stored ISO text of a timestamp field, or null when the record leaves it out. */
  private instant(name: string, text: string | null | undefined): string | null {
    if (text === undefined || text === null) return null;
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(name, 'invalid_value_format', text, 'Expected YYYY-MM-DD HH:MM:SS or ISO 8601');
    return new Date(ms).toISOString();
  }
}
