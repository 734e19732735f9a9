import { formatTimestamp } from '../../core/time.js';
import type { EventPropertyRow } from './event-properties.repo.js';
import type { EventPropertyAnswer } from './event-properties.schemas.js';
import { featureColumns } from '../column-codecs.js';

/** The Property structure; is_required and is_unique are 0 or 1 as interface.md gives them. */
export function toEventProperty(row: EventPropertyRow, timeZone: string): EventPropertyAnswer {
  return {
    property_id: row.id,
    name: row.name,
    description: row.description,
    data_type: row.data_type,
    items: featureColumns['event_properties.items'](row.items),
    is_required: row.is_required,
    is_unique: row.is_unique,
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}
