import { formatTimestamp } from '../../core/time.js';
import type { EventRow } from './events.repo.js';
import type { EventAnswer, NewEvent } from './events.schemas.js';

/** The Event structure of the OpenAPI file, keys in its order. */
export function toEvent(row: EventRow, timeZone: string): EventAnswer {
  return {
    event_id: row.id,
    event_type_id: row.event_type_id,
    customer_id: row.customer_id,
    external_id: row.external_id,
    data: row.data,
    created_at: formatTimestamp(row.created_at, timeZone),
    secondary_external_id: row.secondary_external_id,
    state: row.state,
  };
}

/** interface.md carries `data` as JSON text; structured data is stored as its JSON. */
export function toEventData(data: NewEvent['data']): string | null {
  if (data === undefined || data === null) return null;
  return typeof data === 'string' ? data : JSON.stringify(data);
}
