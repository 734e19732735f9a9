import { notFound } from '../../core/errors.js';
import { toEventProperty } from './event-properties.mappers.js';
import type { EventPropertiesRepo } from './event-properties.repo.js';
import type { EventPropertyQuery } from './event-properties.schemas.js';

export class EventPropertiesService {
  constructor(
    private readonly repo: EventPropertiesRepo,
    private readonly timeZone: string,
  ) {}

  list(query: EventPropertyQuery) {
    const page = this.repo.page(query.name, query);
    return { event_properties: page.items.map((row) => toEventProperty(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    const row = this.repo.propertyById(id);
    if (!row) throw notFound('event-properties', id);
    return toEventProperty(row, this.timeZone);
  }
}
