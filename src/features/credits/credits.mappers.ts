import { fromMinor } from '../../core/money.js';
import type { CreditRecordRow } from './credit-pages.repo.js';
import type { CreditAnswer } from './credits.schemas.js';

/**
 * Credit as today's spec shows it; a redemption's assigned credits are negative. Credit never
 * expires (valid_to null), and the spec types partner_id and credit_type_id as strings, so a
 * record without them answers an empty string, as a Point does.
 */
export function toCredit(row: CreditRecordRow, availableMinor: number, currencyId: string): CreditAnswer {
  return {
    credit_id: row.id,
    customer_id: row.customer_id,
    assigned_credits: fromMinor(row.kind === 'collection' ? row.amount_minor : -row.amount_minor),
    available_credits: fromMinor(availableMinor),
    credit_type_id: row.credit_type_id ?? '',
    partner_id: row.partner_id ?? '',
    valid_to: null,
    currency_id: currencyId,
    state: row.state,
    note: row.note ?? '',
  };
}
