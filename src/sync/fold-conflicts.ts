/**
 * Folds that meet contradicting facts list a conflict (DESIGN §5), on every node that
 * applies the facts, and nothing is dropped: replicated point or credit records that leave
 * a customer's ledger in debt (the same points or credit spent in two stores while offline)
 * keep the negative balance and list the customer; a voucher applied in two stores keeps
 * its first application by HLC and lists the voucher.
 */
import type { Statement } from '../db/engine.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/open.js';
import type { BalanceReader, Standing } from '../loyalty/balance-reader.js';
import { fromMinor } from '../core/money.js';
import type { IdGenerator } from '../core/ids.js';
import type { RowChange } from './protocol/protocol.js';

export class FoldConflicts {
  /** Lists a conflict of a kind on a record, or refreshes the one listed. */
  private readonly record: Statement<[string, string, string, string, string, string]>;
  /** The store of each application that uses the voucher, '-' for none. */
  private readonly applications: Statement<[string], string>;

  constructor(
    db: Db,
    private readonly balances: BalanceReader,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
  ) {
    this.record = db.prepare(
      `INSERT INTO sync_conflicts (id, kind, entity, entity_id, detail, detected_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, entity, entity_id) DO UPDATE SET detail = excluded.detail, detected_at = excluded.detected_at`,
    );
    // An application a cancellation released (voucher_releases) no longer uses the voucher.
    this.applications = db
      .prepare<[string], string>(
        `SELECT coalesce(store_id, '-') FROM voucher_applications a
         WHERE voucher_id = ? AND NOT EXISTS (SELECT 1 FROM voucher_releases r WHERE r.application_id = a.id)`,
      )
      .pluck();
  }

  /** Checks the customers whose point or credit records, or published state, these applied changes touched. */
  check(applied: RowChange[]): void {
    const states = new Set(applied.filter((change) => change.entity === 'customer_states').map((change) => change.entity_id));
    const standing = this.standings();
    this.checkCustomers(new Set([...idsIn(applied, 'point_records', 'customer_id'), ...states]), standing);
    this.checkCreditCustomers(new Set([...idsIn(applied, 'credit_records', 'customer_id'), ...states]), standing);
    for (const voucherId of idsIn(applied, 'voucher_applications', 'voucher_id')) this.checkVoucher(voucherId);
  }

  /** A voucher applied more than once (in two stores offline): the first by HLC stands, the rest are listed. */
  private checkVoucher(voucherId: string): void {
    const stores = this.applications.all(voucherId);
    if (stores.length < 2) return;
    const detail = { applications: stores.length, stores };
    this.record.run(this.newId(), 'voucher_applied_twice', 'vouchers', voucherId, JSON.stringify(detail), new Date(this.clock()).toISOString());
  }

  /**
   * Checks the customers of the point and credit records a write inserted, each read and
   * folded once for both checks (a bill with a customer inserts both).
   */
  checkRecords(points: readonly { customer_id: string }[], credits: readonly { customer_id: string }[]): void {
    const standing = this.standings();
    this.checkCustomers(new Set(points.map((record) => record.customer_id)), standing);
    this.checkCreditCustomers(new Set(credits.map((record) => record.customer_id)), standing);
  }

  checkCustomers(customers: Iterable<string>, standing = this.standings()): void {
    const now = new Date(this.clock()).toISOString();
    for (const customerId of customers) {
      const { debtMilli, pointsMilli } = standing(customerId);
      if (debtMilli === 0) continue;
      const detail = { balance_points: pointsMilli / 1000, uncovered_points: debtMilli / 1000 };
      this.record.run(this.newId(), 'points_overspent', 'customers', customerId, JSON.stringify(detail), now);
    }
  }

  checkCreditCustomers(customers: Iterable<string>, standing = this.standings()): void {
    const now = new Date(this.clock()).toISOString();
    for (const customerId of customers) {
      const { creditMinor } = standing(customerId);
      if (creditMinor >= 0) continue;
      this.record.run(this.newId(), 'credit_overspent', 'customers', customerId, JSON.stringify({ balance_credit: fromMinor(creditMinor) }), now);
    }
  }

  /**
   * Each customer's standing, read and folded once for every check of a batch that asks: a
   * pulled customer state is checked for points and for credit, and a slice of a page holds
   * many (src/sync/store/puller.ts).
   */
  private standings(): (customerId: string) => Standing {
    const at = this.clock();
    const known = new Map<string, Standing>();
    return (customerId) => {
      let standing = known.get(customerId);
      if (!standing) {
        standing = this.balances.standingAt(customerId, at);
        known.set(customerId, standing);
      }
      return standing;
    };
  }
}

/** The ids a column of the applied rows of one table names, each once. */
function idsIn(applied: RowChange[], entity: string, column: string): Set<string> {
  const ids = new Set<string>();
  for (const change of applied) {
    const id = change.entity === entity ? change.row?.[column] : undefined;
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}
