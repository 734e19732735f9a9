import type { EventGroupRow } from './event-groups.schemas.js';

export function toEventGroup(row: EventGroupRow) {
  return { event_group_id: row.id, name: row.name, text_id: row.text_id, state: row.state };
}
