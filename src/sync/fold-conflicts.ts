/**
 * Folds that meet contradicting facts list a conflict (DESIGN §5): when replicated point
 * records leave a customer's ledger in debt — the same points spent in two stores while
 * they were offline — the negative balance is kept and the customer is listed, on every
 * node that applies the facts. Nothing is dropped.
 */
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { Db } from '../db/open.js';
import { PointsRepo } from '../features/points/points.repo.js';
import { readLedger } from '../loyalty/ledger.js';
import type { IdGenerator } from './ids.js';
import type { RowChange } from './protocol.js';

export class FoldConflicts {
  private readonly points: PointsRepo;
  private readonly record: Statement;

  constructor(
    db: Db,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
  ) {
    this.points = new PointsRepo(db);
    this.record = db.prepare(
      `INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, 'points_overspent', 'customers', ?, ?, ?)
       ON CONFLICT (kind, entity, entity_id) DO UPDATE SET detail = excluded.detail, detected_at = excluded.detected_at`,
    );
  }

  /** Checks the customers whose point records these applied changes touched. */
  check(applied: RowChange[]): void {
    const customers = new Set<string>();
    for (const change of applied) {
      if (change.entity === 'point_records' && change.row && typeof change.row.customer_id === 'string') customers.add(change.row.customer_id);
    }
    this.checkCustomers(customers);
  }

  checkCustomers(customers: Iterable<string>): void {
    const now = this.clock();
    for (const customerId of customers) {
      const ledger = readLedger(this.points, customerId, now);
      if (ledger.fold.debt === 0) continue;
      const detail = { balance_points: ledger.balance / 1000, uncovered_points: ledger.fold.debt / 1000 };
      this.record.run(this.newId(), customerId, JSON.stringify(detail), new Date(now).toISOString());
    }
  }
}
