import type { Db } from '../../db/open.js';
import { contains, equals, ListQueries } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { EVENT_GROUP_SORT_FIELDS, EventGroupQuery } from './event-groups.schemas.js';
import type { EventGroupsRow } from '../../db/tables.generated.js';

export type EventGroupRow = Pick<EventGroupsRow, 'id' | 'name' | 'text_id' | 'state'>;

/** Sortable first-level fields of EventGroup and their columns. */
const SORTABLE: Record<(typeof EVENT_GROUP_SORT_FIELDS)[number], string> = { event_group_id: 'id', name: 'name', text_id: 'text_id' };

export class EventGroupsRepo {
  private readonly lists;
  private readonly one;
  private readonly byTextId;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], EventGroupRow>('SELECT id, name, text_id, state FROM event_groups WHERE id = ?');
    this.byTextId = db.prepare<[string], Pick<EventGroupsRow, 'id'>>('SELECT id FROM event_groups WHERE text_id = ? LIMIT 1');
  }

  groupById(id: string): EventGroupRow | undefined {
    return this.one.get(id);
  }

  groupIdByTextId(textId: string): string | undefined {
    return this.byTextId.get(textId)?.id;
  }

  page(filters: Pick<EventGroupQuery, 'name' | 'text_id'>, paging: Paging): Page<EventGroupRow> {
    return this.lists.page<EventGroupRow>(
      {
        from: 'event_groups',
        select: 'id, name, text_id, state',
        filters: [contains('name', filters.name), equals('text_id', filters.text_id)],
        sortable: SORTABLE,
        defaultSort: 'event_group_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'event_groups'>): void {
    tx.insert('event_groups', row);
  }
}
