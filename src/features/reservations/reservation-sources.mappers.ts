import { formatTimestamp } from '../../time.js';
import type { ReservationSourceRow } from './reservation-sources.schemas.js';

export function toReservationSource(row: ReservationSourceRow, timeZone: string) {
  return {
    product_reservation_source_id: row.id,
    name: row.name,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
