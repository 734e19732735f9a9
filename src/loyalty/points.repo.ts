/** Point records, the facts of the points ledger (src/loyalty/CONTEXT.md), as this node holds them. */
import type { Db } from '../db/open.js';
import type { WriteTransaction } from '../db/write-path.js';
import type { PointRecord } from './ledger-records.js';

/** A point record as it is read back: as written, with its stamp. */
export type PointRow = PointRecord & { hlc: string };

export const POINT_COLUMNS =
  'id, customer_id, kind, points_milli, point_type_id, partner_id, valid_to, purchase_id, linked_point_id, created_at, state, hlc';

export class PointsRepo {
  private readonly one;
  private readonly ofCustomer;
  private readonly redeemedToday;

  constructor(db: Db) {
    this.one = db.prepare<[string], PointRow>(`SELECT ${POINT_COLUMNS} FROM point_records WHERE id = ?`);
    this.ofCustomer = db.prepare<[string], PointRow>(`SELECT ${POINT_COLUMNS} FROM point_records WHERE customer_id = ? AND state = 1`);
    this.redeemedToday = db.prepare<[string, string, string], { milli: number | null }>(
      `SELECT sum(points_milli) AS milli FROM point_records
       WHERE customer_id = ? AND kind = 'redemption' AND created_at >= ? AND hlc LIKE '%-' || ?`,
    );
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

  insert(tx: WriteTransaction, record: PointRecord): void {
    tx.insert('point_records', record);
  }
}
