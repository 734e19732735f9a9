import { notFound } from '../../core/errors.js';
import { toEventGroup } from './event-groups.mappers.js';
import type { EventGroupsRepo } from './event-groups.repo.js';
import type { EventGroupQuery } from './event-groups.schemas.js';

export class EventGroupsService {
  constructor(private readonly repo: EventGroupsRepo) {}

  list(query: EventGroupQuery) {
    const page = this.repo.page(query, query);
    return { event_groups: page.items.map(toEventGroup), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.groupById(id);
    if (!row) throw notFound('event-groups', id);
    return toEventGroup(row);
  }
}
