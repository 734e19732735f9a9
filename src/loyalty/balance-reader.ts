/**
 * A customer's balances, the one reader every node uses: the hub's compacted state of the
 * customer (customer_states) folded on with this node's own facts stamped after the state's
 * horizon (customer_ledgers, kept by triggers). The state's lots and debt are where the fold of
 * the facts up to its horizon stands; its tail and this node's later facts, merged in HLC order
 * with a fact in both counted once, are folded from there (src/loyalty/ledger-fold.ts). Credit
 * never expires: its balance is the state's sum, its credit tail and this node's later credit
 * facts, each counted once (src/loyalty/CONTEXT.md). A customer with more own facts than a row
 * lists has them read from the records (src/loyalty/stored-facts.ts).
 *
 * Their totals, what their live records earned and redeemed, are read the same way: the
 * state's sums up to its horizon, then its tails and this node's later facts, each once.
 */
import type { Statement } from '../db/engine.js';
import type { Db } from '../db/open.js';
import type { CustomerStatesRow } from '../db/tables.generated.js';
import { balanceMilliOf, EMPTY_FOLD, foldFrom, mergedByExpiry, type FoldState, type Lot } from './ledger-fold.js';
import {
  creditOfRecord,
  creditRecordsAfter,
  decodeCredits,
  decodeLots,
  decodeOwnCredits,
  decodeOwnPointFacts,
  decodePointFacts,
  factOfRecord,
  IN_RECORDS,
  pointRecordsAfter,
  type OwnFacts,
  type PointFactRecord,
  type StampedCredit,
  type StampedFact,
} from './stored-facts.js';
import { spelt } from '../db/dialect.js';

export interface Balances {
  /** Points now, in thousandths; negative when the same points were spent twice. */
  pointsMilli: number;
  /** Credit, in minor units; negative when the same credit was spent twice. */
  creditMinor: number;
}

/** Balances with the points redeemed that no record covered: what the fold conflicts check (src/sync/fold-conflicts.ts). */
export interface Standing extends Balances {
  debtMilli: number;
}

/** What a customer's live records earned and redeemed: points in thousandths, credit in minor units. */
export interface Totals {
  earnedMilli: number;
  redeemedMilli: number;
  earnedCreditMinor: number;
  redeemedCreditMinor: number;
}

/** The customer an active card belongs to, with their balances. */
export interface CardHolder {
  customerId: string;
  balances: Balances;
}

/** A point record as far as what it has left goes. */
export interface PointRecordRef {
  id: string;
  kind: 'collection' | 'redemption';
  points_milli: number;
  valid_to: string | null;
  state: number;
  hlc: string;
}

/** A customer's standing with what each of their collection records has left. */
export interface StandingByRecord extends Standing {
  /** Points left on one of the customer's records, in thousandths (0 on redemptions and cancelled records). */
  pointsLeftMilli(record: PointRecordRef): number;
}

/** The columns a LEFT JOIN of customer_ledgers and customer_states gives; null where no row. */
interface LedgerRow {
  point_facts: string | null;
  credit_facts: string | null;
  horizon: string | null;
  lots: string | null;
  debt_milli: number | null;
  tail: string | null;
  credit_minor: number | null;
  credit_tail: string | null;
}

/** A customer's state and own facts, decoded, with own facts a row does not list read from the records. */
interface CustomerFacts {
  horizon: string;
  start: FoldState;
  /** The state's tail and this node's later facts, merged in HLC order; a fact in both counts once. */
  facts: StampedFact[];
  /** The state's credit tail and this node's later credit facts, each once. */
  credits: StampedCredit[];
  creditMinor: number;
}

const LEDGER_COLUMNS = 'l.point_facts, l.credit_facts, s.horizon, s.lots, s.debt_milli, s.tail, s.credit_minor, s.credit_tail';
const SUM_COLUMNS = 's.earned_milli, s.redeemed_milli, s.earned_credit_minor, s.redeemed_credit_minor';

/** A state's sums up to its horizon; null on a state published before states carried them, or where there is no state. */
type StateSums = Pick<CustomerStatesRow, 'earned_milli' | 'redeemed_milli' | 'earned_credit_minor' | 'redeemed_credit_minor'>;

/** The sums of a customer with no state: nothing folded yet. */
const NO_STATE_SUMS: StateSums = { earned_milli: 0, redeemed_milli: 0, earned_credit_minor: 0, redeemed_credit_minor: 0 };

export class BalanceReader {
  private readonly row;
  private readonly byCard;
  private readonly sameExpiry: Statement<[string, string | null, string], { id: string; points_milli: number }>;
  private readonly pointRecords: Statement<[string, string], PointFactRecord>;
  private readonly creditRecords: Statement<[string, string], { id: string; signed_minor: number; hlc: string }>;

  constructor(db: Db) {
    this.row = db.prepare<[string, string], LedgerRow & StateSums>(
      `SELECT ${LEDGER_COLUMNS}, ${SUM_COLUMNS} FROM (SELECT ? AS customer_id) c
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = ?`,
    );
    // The cash desk's lookups in one statement: on the checkout bench a second statement
    // cost more than the extra B-tree searches. SQLite is held to the card index the
    // checkout reads; PostgreSQL's planner takes no such hint.
    this.byCard = db.prepare<[string], { customer_id: string } & LedgerRow>(
      `SELECT c.customer_id, ${LEDGER_COLUMNS} FROM cards c ${spelt(db, { sqlite: 'INDEXED BY cards_for_checkout', postgres: '' })}
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = c.customer_id
       WHERE c.card_number = ? AND c.state = 1`,
    );
    this.sameExpiry = db.prepare(
      `SELECT id, points_milli FROM point_records
       WHERE customer_id = ? AND kind = 'collection' AND state = 1 AND valid_to IS NOT DISTINCT FROM ? AND hlc <= ? ORDER BY hlc DESC`,
    );
    this.pointRecords = pointRecordsAfter(db);
    this.creditRecords = creditRecordsAfter(db);
  }

  balancesAt(customerId: string, at: number): Balances {
    return balancesOf(this.decoded(customerId, this.row.get(customerId, customerId)!), at);
  }

  /**
   * What the customer's live records earned and redeemed, as far as this node knows them: the
   * state's sums, its tails and this node's own facts after its horizon. Undefined when the
   * state has no sums (one published before states carried them).
   */
  totals(customerId: string): Totals | undefined {
    const row = this.row.get(customerId, customerId)!;
    const sums: StateSums = row.horizon === null ? NO_STATE_SUMS : row;
    const { earned_milli, redeemed_milli, earned_credit_minor, redeemed_credit_minor } = sums;
    if (earned_milli === null || redeemed_milli === null || earned_credit_minor === null || redeemed_credit_minor === null) return undefined;
    const totals: Totals = {
      earnedMilli: earned_milli,
      redeemedMilli: redeemed_milli,
      earnedCreditMinor: earned_credit_minor,
      redeemedCreditMinor: redeemed_credit_minor,
    };
    const { facts, credits } = this.decoded(customerId, row);
    for (const fact of facts) {
      if (fact.kind === 'collection') totals.earnedMilli += fact.points_milli;
      else totals.redeemedMilli += fact.points_milli;
    }
    for (const credit of credits) {
      if (credit.signedMinor > 0) totals.earnedCreditMinor += credit.signedMinor;
      else totals.redeemedCreditMinor -= credit.signedMinor;
    }
    return totals;
  }

  /**
   * The points left that expire after `at`, by expiry (ms since the epoch), earliest first: the
   * lots of the customer's state folded on with the facts after its horizon, so every store's
   * collections count, as they do in the balance, whichever records this node holds.
   */
  expiringAfter(customerId: string, at: number): { validTo: number; leftMilli: number }[] {
    const { start, facts } = this.read(customerId);
    return mergedByExpiry(foldFrom(start, facts).state.lots)
      .filter((lot): lot is Lot & { valid_to: number } => lot.valid_to !== null && lot.valid_to > at)
      .map((lot) => ({ validTo: lot.valid_to, leftMilli: lot.remainingMilli }));
  }

  /** Balances and debt from one read and one fold. */
  standingAt(customerId: string, at: number): Standing {
    const { start, facts, creditMinor } = this.read(customerId);
    const { state } = foldFrom(start, facts);
    return { debtMilli: state.debtMilli, pointsMilli: balanceMilliOf(state, at), creditMinor };
  }

  /** The holder of an active card and their balances; undefined when no active card has that number. */
  cardHolder(cardNumber: string, at: number): CardHolder | undefined {
    const row = this.byCard.get(cardNumber);
    return row && { customerId: row.customer_id, balances: balancesOf(this.decoded(row.customer_id, row), at) };
  }

  /**
   * The whole fold (GET /points, a purchase's points, the fold conflicts). A record folded
   * after the horizon has what the fold left on it. One folded into the state's lots is known
   * by its expiry only: the lot of that expiry is shared out among the records of that expiry
   * this node holds, newest first, as the fold spends the oldest first — exact at the hub,
   * which holds every record; at a store, which holds only its own, the newest of its records
   * may be shown with points a record of another store has.
   */
  standingByRecord(customerId: string, at: number): StandingByRecord {
    const { horizon, start, facts, creditMinor } = this.read(customerId);
    const { remainingMilli, startRemainingMilli, state } = foldFrom(start, facts);
    const leftMilli = new Map<string, number>();
    facts.forEach((fact, index) => {
      if (fact.kind === 'collection') leftMilli.set(fact.id, remainingMilli[index]!);
    });
    const lotLeftMilli = new Map(start.lots.map((lot, index) => [lot.valid_to, startRemainingMilli[index]!]));
    const shareOut = (record: PointRecordRef) => {
      let restMilli = lotLeftMilli.get(record.valid_to === null ? null : Date.parse(record.valid_to)) ?? 0;
      for (const sharer of this.sameExpiry.all(customerId, record.valid_to, horizon)) {
        const shareMilli = Math.min(sharer.points_milli, restMilli);
        leftMilli.set(sharer.id, shareMilli);
        restMilli -= shareMilli;
      }
    };
    const pointsLeftMilli = (record: PointRecordRef) => {
      if (record.kind !== 'collection' || record.state !== 1) return 0;
      if (!leftMilli.has(record.id) && record.hlc <= horizon) shareOut(record);
      return leftMilli.get(record.id) ?? 0;
    };
    return { debtMilli: state.debtMilli, pointsMilli: balanceMilliOf(state, at), creditMinor, pointsLeftMilli };
  }

  /** Points left on each of these records, in thousandths, in their order (a page of GET /points, a purchase's points). */
  pointsLeftMilliOn(records: readonly (PointRecordRef & { customer_id: string })[], at: number): number[] {
    const standings = new Map<string, StandingByRecord>();
    return records.map((record) => {
      let standing = standings.get(record.customer_id);
      if (!standing) {
        standing = this.standingByRecord(record.customer_id, at);
        standings.set(record.customer_id, standing);
      }
      return standing.pointsLeftMilli(record);
    });
  }

  private read(customerId: string): CustomerFacts {
    return this.decoded(customerId, this.row.get(customerId, customerId)!);
  }

  private decoded(customerId: string, row: LedgerRow): CustomerFacts {
    const horizon = row.horizon ?? '';
    const ownFacts = listed(decodeOwnPointFacts(row.point_facts), () => this.pointRecords.all(customerId, horizon).map(factOfRecord));
    const ownCredits = listed(decodeOwnCredits(row.credit_facts), () => this.creditRecords.all(customerId, horizon).map(creditOfRecord));
    const credits = mergedOnce(decodeCredits(row.credit_tail), ownCredits);
    return {
      horizon,
      start: row.lots === null ? EMPTY_FOLD : { lots: decodeLots(row.lots), debtMilli: row.debt_milli ?? 0 },
      facts: mergedOnce(decodePointFacts(row.tail), ownFacts),
      credits,
      creditMinor: credits.reduce((sum, credit) => sum + credit.signedMinor, row.credit_minor ?? 0),
    };
  }
}

/** Own facts as their row lists them, or read from the records when it lists `IN_RECORDS`. */
function listed<Fact>(own: OwnFacts<Fact>, fromRecords: () => Fact[]): Fact[] {
  return own === IN_RECORDS ? fromRecords() : own;
}

function balancesOf({ start, facts, creditMinor }: CustomerFacts, at: number): Balances {
  return { pointsMilli: balanceMilliOf(foldFrom(start, facts).state, at), creditMinor };
}

/** The state's tail and this node's later facts (of points or of credit), merged in HLC order; a fact in both counts once. */
function mergedOnce<T extends { id: string; hlc: string }>(tail: T[], own: T[]): T[] {
  if (tail.length === 0) return own;
  const seen = new Set(tail.map((fact) => fact.id));
  const merged = [...tail, ...own.filter((fact) => !seen.has(fact.id))];
  return merged.sort((a, b) => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : 0));
}
