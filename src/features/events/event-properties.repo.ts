import type { Db } from '../../db/open.js';
import { contains, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { EVENT_PROPERTY_SORT_FIELDS } from './event-properties.schemas.js';
import type { EventPropertiesRow } from '../../db/tables.generated.js';

export type EventPropertyRow = Omit<EventPropertiesRow, 'hlc'>;

const COLUMNS = 'id, name, description, data_type, items, is_required, is_unique, state, last_change';

/** Sortable first-level fields of Property and their columns. */
const SORTABLE: Record<(typeof EVENT_PROPERTY_SORT_FIELDS)[number], string> = { property_id: 'id', name: 'name' };

export class EventPropertiesRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], EventPropertyRow>(`SELECT ${COLUMNS} FROM event_properties WHERE id = ?`);
  }

  propertyById(id: string): EventPropertyRow | undefined {
    return this.one.get(id);
  }

  page(name: string | undefined, paging: Paging): Page<EventPropertyRow> {
    return this.lists.page<EventPropertyRow>(
      {
        from: 'event_properties',
        select: COLUMNS,
        filters: [contains('name', name)],
        sortable: SORTABLE,
        defaultSort: 'property_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'event_properties'>): void {
    tx.insert('event_properties', row);
  }
}
