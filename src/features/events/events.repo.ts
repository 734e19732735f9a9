import type { Db } from '../../db/open.js';
import { atLeast, atMost, equals, ListQueries, oneOf } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { EVENT_SORT_FIELDS } from './events.schemas.js';
import type { CustomersRow, EventPropertiesRow, EventPropertyRecordsRow, EventsRow } from '../../db/tables.generated.js';

export type PropertyRecordRow = Omit<EventPropertyRecordsRow, 'hlc'> & { property_name: EventPropertiesRow['name'] | null };

export type EventRow = Omit<EventsRow, 'hlc' | 'last_change'>;

export interface EventFilters {
  event_type_id?: string;
  event_type_ids?: string[];
  customer_id?: string;
  external_id?: string;
  /** ISO instants. */
  created_from?: string;
  created_to?: string;
}

export interface EventRelation {
  event_type_id: string;
  customer_id: string;
  external_id: string;
  secondary_external_id: string | null;
}

const COLUMNS = 'id, event_type_id, customer_id, external_id, secondary_external_id, data, created_at, state';

/** Sortable first-level fields of Event and their columns. */
const SORTABLE: Record<(typeof EVENT_SORT_FIELDS)[number], string> = { event_id: 'id', external_id: 'external_id', created_at: 'created_at' };

export class EventsRepo {
  private readonly lists;
  private readonly one;
  private readonly byRelation;
  private readonly records;
  private readonly customer;
  private readonly property;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], EventRow>(`SELECT ${COLUMNS} FROM events WHERE id = ?`);
    this.byRelation = db.prepare<[string, string, string, string | null], Pick<EventsRow, 'id'>>(
      `SELECT id FROM events
       WHERE customer_id = ? AND event_type_id = ? AND external_id = ? AND secondary_external_id IS NOT DISTINCT FROM ?
       ORDER BY id LIMIT 1`,
    );
    this.records = db.prepare<[string], PropertyRecordRow>(
      `SELECT r.id, r.event_id, r.property_id, p.name AS property_name, r.property_value, r.last_change
       FROM event_property_records r LEFT JOIN event_properties p ON p.id = r.property_id
       WHERE r.event_id = ? ORDER BY r.id`,
    );
    this.customer = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
    this.property = db.prepare<[string], Pick<EventPropertiesRow, 'id'>>('SELECT id FROM event_properties WHERE id = ?');
  }

  eventById(id: string): EventRow | undefined {
    return this.one.get(id);
  }

  eventIdByRelation(relation: EventRelation): string | undefined {
    return this.byRelation.get(relation.customer_id, relation.event_type_id, relation.external_id, relation.secondary_external_id)?.id;
  }

  propertyRecordsOf(eventId: string): PropertyRecordRow[] {
    return this.records.all(eventId);
  }

  customerExists(id: string): boolean {
    return this.customer.get(id) !== undefined;
  }

  propertyExists(id: string): boolean {
    return this.property.get(id) !== undefined;
  }

  page(filters: EventFilters, paging: Paging): Page<EventRow> {
    return this.lists.page<EventRow>(
      {
        from: 'events',
        select: COLUMNS,
        filters: [
          equals('event_type_id', filters.event_type_id),
          oneOf('event_type_id', filters.event_type_ids),
          equals('customer_id', filters.customer_id),
          equals('external_id', filters.external_id),
          atLeast('created_at', filters.created_from),
          atMost('created_at', filters.created_to),
        ],
        sortable: SORTABLE,
        defaultSort: 'event_id',
      },
      paging,
    );
  }

  insertEvent(tx: WriteTransaction, row: WrittenRow<'events'>): void {
    tx.insert('events', row);
  }

  insertPropertyRecord(tx: WriteTransaction, row: WrittenRow<'event_property_records'>): void {
    tx.insert('event_property_records', row);
  }
}
