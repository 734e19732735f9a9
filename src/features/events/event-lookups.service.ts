/**
 * The lookups of events as master data loads them (`loyaltyd import event-properties|
 * event-groups`): the API only reads them, so these are their one write path. A record keeps
 * the id it has in the source system, and is loaded on the hub as master data, reaching
 * stores through the change feed rather than as a command.
 */
import type { WritePath } from '../../db/write-path.js';
import { invalidParam } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { EventGroupsRepo } from './event-groups.repo.js';
import type { EventGroupRecord } from './event-groups.schemas.js';
import type { EventPropertiesRepo } from './event-properties.repo.js';
import type { EventPropertyRecord } from './event-properties.schemas.js';

export class EventLookupsService {
  constructor(
    private readonly properties: EventPropertiesRepo,
    private readonly groups: EventGroupsRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
  ) {}

  importProperty(record: EventPropertyRecord): void {
    if (this.properties.propertyById(record.property_id)) throw invalidParam('property_id', 'already_exists', record.property_id);
    const row = {
      id: record.property_id,
      name: record.name,
      description: record.description ?? null,
      data_type: record.data_type,
      items: JSON.stringify(record.items ?? []),
      is_required: record.is_required ?? 0,
      is_unique: record.is_unique ?? 0,
      state: record.state ?? 1,
    };
    this.writes.write(null, (tx) => this.properties.insert(tx, row));
  }

  importGroup(record: EventGroupRecord): void {
    const id = record.event_group_id ?? this.newId();
    if (this.groups.groupById(id)) throw invalidParam('event_group_id', 'already_exists', id);
    // GET /event-groups?text_id= names one group.
    if (this.groups.groupIdByTextId(record.text_id) !== undefined) throw invalidParam('text_id', 'already_exists', record.text_id);
    const row = { id, name: record.name, text_id: record.text_id, state: record.state ?? 1 };
    this.writes.write(null, (tx) => this.groups.insert(tx, row));
  }
}
