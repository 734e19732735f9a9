/**
 * A customer's balances folded from scratch from every point and credit record a node's file
 * holds — the tests' oracle for the node's one reader (src/loyalty/customer-ledgers.ts), on a
 * node that holds all the records (a hub, or a store with no hub).
 */
import type { Db } from '../../src/db/open.js';
import { balanceAt, foldLedger, type PointFact } from '../../src/loyalty/ledger-fold.js';

interface PointRecord {
  id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  valid_to: string | null;
  created_at: string;
  hlc: string;
}

/** Points at a moment, in thousandths: the fold of the customer's live point records. */
export function foldedPoints(db: Db, customerId: string, at: number): number {
  const records = db
    .prepare<[string], PointRecord>('SELECT id, kind, points_milli, valid_to, created_at, hlc FROM point_records WHERE customer_id = ? AND state = 1')
    .all(customerId);
  const facts: PointFact[] = records.map((record) => ({
    id: record.id,
    kind: record.kind,
    points_milli: record.points_milli,
    valid_to: record.valid_to === null ? null : Date.parse(record.valid_to),
    at: Date.parse(record.created_at),
    hlc: record.hlc,
  }));
  return balanceAt(facts, foldLedger(facts), at);
}

/** Credit in minor units: collections less redemptions of the customer's live credit records. */
export function summedCredit(db: Db, customerId: string): number {
  return db
    .prepare<[string], number>(
      "SELECT coalesce(sum(CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END), 0) FROM credit_records WHERE customer_id = ? AND state = 1",
    )
    .pluck()
    .get(customerId)!;
}
