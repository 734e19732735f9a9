/** Pages of point records for GET /points, filtered and sorted as the API asks. */
import type { Db } from '../../db/open.js';
import { atLeast, atMost, equals, ListQueries } from '../../db/list-query.js';
import type { Page, Paging } from '../../core/paging.js';
import { POINT_COLUMNS, type PointRow } from '../../loyalty/points.repo.js';
import type { POINT_SORT_FIELDS } from './points.schemas.js';

/** Sortable first-level fields of Point and their columns. */
const SORTABLE: Record<(typeof POINT_SORT_FIELDS)[number], string> = { point_id: 'id' };

export interface PointFilters {
  customer_id?: string;
  point_type_id?: string;
  created_from?: string;
  created_to?: string;
}

export class PointPages {
  private readonly lists;

  constructor(db: Db) {
    this.lists = new ListQueries(db);
  }

  page(filters: PointFilters, paging: Paging): Page<PointRow> {
    return this.lists.page(
      {
        from: 'point_records',
        select: POINT_COLUMNS,
        filters: [
          equals('customer_id', filters.customer_id),
          equals('point_type_id', filters.point_type_id),
          atLeast('created_at', filters.created_from),
          atMost('created_at', filters.created_to),
        ],
        sortable: SORTABLE,
        defaultSort: 'point_id',
      },
      paging,
    );
  }
}
