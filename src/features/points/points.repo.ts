import type { Db } from '../../db/open.js';
import { atLeast, atMost, equals, ListQueries } from '../../db/list-query.js';
import type { Row, WriteTransaction } from '../../db/write-path.js';
import type { Page, Paging } from '../../http/paging.js';
import type { PointRow } from './points.schemas.js';

const COLUMNS = 'id, customer_id, kind, points_milli, point_type_id, partner_id, valid_to, purchase_id, linked_point_id, created_at, state, hlc';

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

export class PointsRepo {
  private readonly one;
  private readonly ofCustomer;
  private readonly redeemedToday;
  private readonly lists;

  constructor(db: Db) {
    this.one = db.prepare<[string], PointRow>(`SELECT ${COLUMNS} FROM point_records WHERE id = ?`);
    this.ofCustomer = db.prepare<[string], PointRow>(`SELECT ${COLUMNS} FROM point_records WHERE customer_id = ? AND state = 1`);
    this.redeemedToday = db.prepare<[string, string, string], { milli: number | null }>(
      `SELECT sum(points_milli) AS milli FROM point_records
       WHERE customer_id = ? AND kind = 'redemption' AND created_at >= ? AND hlc LIKE '%-' || ?`,
    );
    this.lists = new ListQueries(db);
  }

  byId(id: string): PointRow | undefined {
    return this.one.get(id);
  }

  recordsOfCustomer(customerId: string): PointRow[] {
    return this.ofCustomer.all(customerId);
  }

  /** Points this node redeemed for a customer since a moment (for the offline daily cap). */
  redeemedHereSince(customerId: string, since: string, nodeId: string): number {
    return this.redeemedToday.get(customerId, since, nodeId)?.milli ?? 0;
  }

  page(filters: PointFilters, paging: Paging): Page<PointRow> {
    return this.lists.page(
      {
        from: 'point_records',
        select: COLUMNS,
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

  insert(tx: WriteTransaction, row: Row): void {
    tx.insert('point_records', row);
  }
}
