/** Pages of point records for GET /points, filtered and sorted as the API asks. */
import type { Db } from '../../db/open.js';
import { atLeast, atMost, equals, ListQueries } from '../../db/list-query.js';
import type { Page, Paging } from '../../core/paging.js';
import { POINT_COLUMNS, type PointRow } from '../../loyalty/points.repo.js';

/** Sortable first-level fields of Point and their columns. */
const SORTABLE = {
  point_id: 'id',
  customer_id: 'customer_id',
  assigned_points: "CASE kind WHEN 'redemption' THEN -points_milli ELSE points_milli END",
  point_type_id: 'point_type_id',
  partner_id: 'partner_id',
  valid_to: 'valid_to',
  state: 'state',
};

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
        tieBreaker: 'id',
      },
      paging,
    );
  }
}
