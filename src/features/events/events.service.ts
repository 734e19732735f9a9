import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { badRequest, invalidParam, notFound, type InvalidParam } from '../../core/errors.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import { toPropertyRecord } from '../property-records.mapper.js';
import { toEvent, toEventData } from './events.mappers.js';
import type { EventsRepo, EventRow } from './events.repo.js';
import type { CreateEvent, EventQuery } from './events.schemas.js';

/** The parameter name the OpenAPI file gives a repeated event relation. */
const RELATION = 'event_id_event_type_id_customer_id_external_id_secondary_external_id';

/** What EventsService is built from. */
export interface EventsServiceOptions {
  repo: EventsRepo;
  writes: WritePath;
  newId: IdGenerator;
  clock: Clock;
  timeZone: string;
}

export class EventsService {
  private readonly repo: EventsRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: EventsServiceOptions) {
    const { repo, writes, newId, clock, timeZone } = options;
    this.repo = repo;
    this.writes = writes;
    this.newId = newId;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  create(request: CreateEvent, context: RequestContext): { event_id: string } {
    const { event } = request;
    assertOwnRecord(context, event.customer_id, 'event.customer_id', event.customer_id);
    const createdAt = event.created_at === undefined ? this.clock() : this.instant('event.created_at', event.created_at);
    const records = request.property_records ?? [];
    this.assertReferencesExist(request);
    const relation = {
      event_type_id: event.event_type_id,
      customer_id: event.customer_id,
      external_id: event.external_id,
      secondary_external_id: event.secondary_external_id ?? null,
    };
    const existing = this.repo.eventIdByRelation(relation);
    if (existing !== undefined) {
      // The value names the event already recorded, so a client retrying a lost answer finds it.
      throw invalidParam(
        RELATION,
        'relation_already_exists',
        existing,
        'Relation for this combination of event type, customer ID and external IDs already exists.',
      );
    }
    const id = this.newId();
    const row = { id, ...relation, data: toEventData(event.data), created_at: new Date(createdAt).toISOString(), state: 1 };
    const recordRows = records.map((record) => ({
      id: this.newId(),
      event_id: id,
      property_id: record.property_id,
      property_value: JSON.stringify(record.property_value ?? null),
    }));
    this.writes.write({ kind: 'events.create', payload: { event: row, property_records: recordRows } }, (tx) => {
      this.repo.insertEvent(tx, row);
      for (const record of recordRows) this.repo.insertPropertyRecord(tx, record);
    });
    return { event_id: id };
  }

  list(query: EventQuery, context: RequestContext) {
    const page = this.repo.page(
      {
        event_type_id: query.event_type_id,
        event_type_ids: query.event_type_ids,
        customer_id: customerFilter(context, query.customer_id),
        external_id: query.external_id,
        created_from: query.time_from === undefined ? undefined : new Date(this.instant('time_from', query.time_from)).toISOString(),
        created_to: query.time_to === undefined ? undefined : new Date(this.instant('time_to', query.time_to)).toISOString(),
      },
      query,
    );
    const events = page.items.map((row) => {
      const event = toEvent(row, this.timeZone);
      return query.include_property_records ? { ...event, property_records: this.propertyRecordsOf(row.id) } : event;
    });
    return { events, total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    return toEvent(this.ownEvent(id, context), this.timeZone);
  }

  propertyRecords(id: string, context: RequestContext) {
    const property_records = this.propertyRecordsOf(this.ownEvent(id, context).id);
    return { property_records, total_items: property_records.length };
  }

  private propertyRecordsOf(eventId: string) {
    return this.repo.propertyRecordsOf(eventId).map((record) => toPropertyRecord(record, this.timeZone));
  }

  private ownEvent(id: string, context: RequestContext): EventRow {
    const row = this.repo.eventById(id);
    if (!row) throw notFound('events', id);
    assertOwnRecord(context, row.customer_id, 'event_id', id);
    return row;
  }

  private instant(name: string, text: string): number {
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(name, 'invalid_value_format', text, 'Expected YYYY-MM-DD HH:MM:SS or ISO 8601');
    return ms;
  }

  private assertReferencesExist(request: CreateEvent): void {
    const missing: InvalidParam[] = [];
    if (!this.repo.customerExists(request.event.customer_id)) {
      missing.push({ name: 'event.customer_id', reason: 'not_found', value: request.event.customer_id });
    }
    (request.property_records ?? []).forEach((record, index) => {
      if (!this.repo.propertyExists(record.property_id)) {
        missing.push({ name: `property_records.${index}.property_id`, reason: 'not_found', value: record.property_id });
      }
    });
    if (missing.length) throw badRequest(missing);
  }
}
