import { formatTimestamp } from '../../core/time.js';
import type { ReservationSourceRow } from './reservation-sources.repo.js';
import type { ReservationSourceAnswer } from './reservation-sources.schemas.js';

export function toReservationSource(row: ReservationSourceRow, timeZone: string): ReservationSourceAnswer {
  return {
    product_reservation_source_id: row.id,
    name: row.name,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
