import type { EventGroupRow } from './event-groups.repo.js';
import type { EventGroupAnswer } from './event-groups.schemas.js';

export function toEventGroup(row: EventGroupRow): EventGroupAnswer {
  return { event_group_id: row.id, name: row.name, text_id: row.text_id, state: row.state };
}
