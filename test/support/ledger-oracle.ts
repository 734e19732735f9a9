/**
 * The tests' oracle for balances: the fold from scratch over a customer's facts in any order,
 * and over every point and credit record a node's file holds — what the node's one reader
 * (src/loyalty/balance-reader.ts) must answer on a node that holds all the records (a hub, or a
 * store with no hub).
 */
import type { Db } from '../../src/db/open.js';
import { EMPTY_FOLD, foldFrom, type OrderedFact } from '../../src/loyalty/ledger-fold.js';

/** A point record as a fact, in whatever order it arrived. */
export interface PointFact {
  id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  /** When a collection expires (ms since the epoch); null for never. */
  valid_to: number | null;
  /** When the fact happened (ms since the epoch). */
  at: number;
  hlc: string;
}

export interface LedgerFold {
  /** Points left on each collection record, in thousandths, by id (redemptions are absent). */
  available: Map<string, number>;
  /** Redeemed points no record covered, in thousandths. */
  debt: number;
}

/** The fold of facts in any order: sorted by stamp, then folded from nothing. */
export function foldLedger(facts: readonly PointFact[]): LedgerFold {
  const ordered = [...facts].sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0));
  const { remainingMilli, state } = foldFrom(EMPTY_FOLD, ordered.map(toOrderedFact));
  const available = new Map<string, number>();
  ordered.forEach((fact, index) => {
    if (fact.kind === 'collection') available.set(fact.id, remainingMilli[index]!);
  });
  return { available, debt: state.debtMilli };
}

/** The balance at a moment, in thousandths: unexpired points left, less the debt. May be negative. */
export function balanceAt(facts: readonly PointFact[], fold: LedgerFold, at: number): number {
  let left = 0;
  for (const fact of facts) {
    if (fact.kind !== 'collection' || (fact.valid_to !== null && fact.valid_to <= at)) continue;
    left += fold.available.get(fact.id) ?? 0;
  }
  return left - fold.debt;
}

function toOrderedFact(fact: PointFact): OrderedFact {
  return fact.kind === 'collection'
    ? { kind: 'collection', points_milli: fact.points_milli, valid_to: fact.valid_to, id: fact.id }
    : { kind: 'redemption', points_milli: fact.points_milli, at: fact.at };
}

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
  return foldRecords(records, at);
}

/** Points at a moment, in thousandths: the fold of these live point records, as their table keeps them. */
export function foldRecords(records: readonly PointRecord[], at: number): number {
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
