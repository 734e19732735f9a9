import type { Db } from '../../db/open.js';
import { equals, ListQueries, type Filter } from '../../db/list-query.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { StoresRow } from '../../db/tables.generated.js';
import type { STORE_SORT_FIELDS } from './stores.schemas.js';

export type StoreRow = Omit<StoresRow, 'hlc'>;

export interface StoreFilters {
  visibility_for_customer?: number;
  property?: { id: string; value: string };
}

const COLUMNS = 'id, store_code, name, partner_id, system_id, visibility_for_customer, details, state, last_change';

/** Sortable first-level fields of Store and their columns. */
const SORTABLE: Record<(typeof STORE_SORT_FIELDS)[number], string> = {
  store_id: 'id',
  store_code: 'store_code',
  name: 'name',
  visibility_for_customer: 'visibility_for_customer',
};

/**
 * Stores with a record of the property whose value is the text given, or, for a property
 * with several values (a JSON array), one of whose values is. SQLite's json_each reads a
 * value of any kind: an array's elements, an object's members, a scalar alone. PostgreSQL's
 * functions each take one kind, so its twin makes every value an array first; `#>> '{}'`
 * gives each element as text, a string unquoted, true and false as words, null as NULL.
 */
function withPropertyValue(property: StoreFilters['property']): Filter {
  if (property === undefined) return undefined;
  const value = 'CAST(r.property_value AS json)';
  return {
    sql: {
      sqlite: `id IN (SELECT r.store_id FROM store_property_records r, json_each(r.property_value) v
                 WHERE r.property_id = ?
                   AND (CASE v.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(v.value AS TEXT) END) = ?)`,
      postgres: `id IN (SELECT r.store_id FROM store_property_records r,
                   json_array_elements(CASE json_typeof(${value})
                     WHEN 'array' THEN ${value}
                     WHEN 'object' THEN (SELECT json_agg(member.value) FROM json_each(${value}) AS member)
                     ELSE json_build_array(${value}) END) AS v(value)
                 WHERE r.property_id = ? AND v.value #>> '{}' = ?)`,
    },
    params: [property.id, property.value],
  };
}

export class StoresRepo {
  private readonly lists;
  private readonly one;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
    this.one = db.prepare<[string], StoreRow>(`SELECT ${COLUMNS} FROM stores WHERE id = ?`);
  }

  storeById(id: string): StoreRow | undefined {
    return this.one.get(id);
  }

  page(filters: StoreFilters, paging: Paging): Page<StoreRow> {
    return this.lists.page<StoreRow>(
      {
        from: 'stores',
        select: COLUMNS,
        filters: [equals('visibility_for_customer', filters.visibility_for_customer), withPropertyValue(filters.property)],
        sortable: SORTABLE,
        defaultSort: 'store_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'stores'>): void {
    tx.insert('stores', row);
  }

  update(tx: WriteTransaction, id: string, changes: Partial<WrittenRow<'stores'>>): void {
    tx.update('stores', id, changes);
  }
}
