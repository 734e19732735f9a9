/** What a customer earned and redeemed in a time interval, summed from the facts this node holds. */
import type { Db } from '../../db/open.js';
import type { CustomersRow } from '../../db/tables.generated.js';

export interface Turnover {
  earned: number;
  redeemed: number;
}

const SUMS = `coalesce(sum(CASE kind WHEN 'collection' THEN {amount} END), 0) AS earned,
  coalesce(sum(CASE kind WHEN 'redemption' THEN {amount} END), 0) AS redeemed`;

export class WalletRepo {
  private readonly points;
  private readonly credits;
  private readonly customerExists;

  constructor(db: Db) {
    const where = 'WHERE customer_id = ? AND state = 1 AND created_at >= ? AND created_at <= ?';
    this.points = db.prepare<[string, string, string], Turnover>(`SELECT ${SUMS.replaceAll('{amount}', 'points_milli')} FROM point_records ${where}`);
    this.credits = db.prepare<[string, string, string], Turnover>(
      `SELECT ${SUMS.replaceAll('{amount}', 'amount_minor')} FROM credit_records ${where}`,
    );
    this.customerExists = db.prepare<[string], Pick<CustomersRow, 'id'>>('SELECT id FROM customers WHERE id = ?');
  }

  hasCustomer(id: string): boolean {
    return this.customerExists.get(id) !== undefined;
  }

  /** Points in thousandths collected and redeemed between two instants (ISO text), both included. */
  pointsBetween(customerId: string, from: string, to: string): Turnover {
    return this.points.get(customerId, from, to)!;
  }

  /** Credit in minor units collected and redeemed between two instants, both included. */
  creditsBetween(customerId: string, from: string, to: string): Turnover {
    return this.credits.get(customerId, from, to)!;
  }
}
