/**
 * A customer's points as the fold of their point records (src/loyalty/ledger-fold.ts),
 * read from the local replica.
 */
import type { PointsRepo } from '../features/points/points.repo.js';
import type { PointRow } from '../features/points/points.schemas.js';
import { balanceAt, foldLedger, type LedgerFold, type PointFact } from './ledger-fold.js';

export interface CustomerLedger {
  records: PointRow[];
  fold: LedgerFold;
  /** Balance now, in thousandths; negative when the same points were spent twice. */
  balance: number;
}

export function toFact(row: PointRow): PointFact {
  return {
    id: row.id,
    kind: row.kind,
    points_milli: row.points_milli,
    valid_to: row.valid_to === null ? null : Date.parse(row.valid_to),
    at: Date.parse(row.created_at),
    hlc: row.hlc,
  };
}

export function readLedger(points: PointsRepo, customerId: string, at: number): CustomerLedger {
  const records = points.recordsOfCustomer(customerId);
  const facts = records.map(toFact);
  const fold = foldLedger(facts);
  return { records, fold, balance: balanceAt(facts, fold, at) };
}
