import { formatOptionalTimestamp, formatTimestamp } from '../../core/time.js';
import type { CardRow } from './cards.repo.js';
import type { CardAnswer } from './cards.schemas.js';

/** Card as GET /cards answers it, keys in the order of the OpenAPI Card schema. */
export function toCard(row: CardRow, timeZone: string): CardAnswer {
  return {
    card_id: row.id,
    customer_id: row.customer_id,
    card_type_id: row.card_type_id,
    card_number: row.card_number,
    secondary_card_number: row.secondary_card_number,
    valid_from: formatOptionalTimestamp(row.valid_from, timeZone),
    valid_to: formatOptionalTimestamp(row.valid_to, timeZone),
    store_id: row.store_id,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
