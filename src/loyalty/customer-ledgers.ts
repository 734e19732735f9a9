/**
 * A customer's balances, the one reader every node uses: the hub's compacted state of the
 * customer (customer_states, migration 0009) folded on with this node's own facts stamped
 * after the state's horizon (customer_ledgers, kept by triggers). The state's lots and debt
 * are where the fold of the facts up to its horizon stands; its tail and this node's later
 * facts, merged in HLC order with a fact in both counted once, are folded from there
 * (src/loyalty/ledger-fold.ts). Credit never expires: its balance is the state's sum, its
 * credit tail and this node's later credit facts, each counted once (src/loyalty/CONTEXT.md).
 * A customer with more of these facts than a row lists (migration 16: a house card while a
 * silent store holds the horizon back) has 'records' in place of the list, and those facts
 * are read from the records.
 */
import type { Statement } from 'better-sqlite3';
import { typedJson, type ColumnCodecs } from '../db/column-codecs.js';
import type { Db } from '../db/open.js';
import type { CardsRow, CustomerLedgersRow, CustomerStatesRow, LeftJoined, PointRecordsRow } from '../db/tables.generated.js';
import { balanceOfState, EMPTY_FOLD, foldFrom, type FoldState, type Lot, type OrderedFact } from './ledger-fold.js';

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

/** A customer's points in full: the debt, the balance, and what each collection record has left. */
export interface CustomerLedger {
  /** Redeemed points no record covered. */
  debt: number;
  /** Balance now, in thousandths; negative when the same points were spent twice. */
  balance: number;
  creditMinor: number;
  /** Points left on one of the customer's records (0 on redemptions and cancelled records). */
  pointsLeft(record: PointRecordRef): number;
}

/** The columns a LEFT JOIN of customer_ledgers and customer_states gives; null where no row. */
type LedgerRow = LeftJoined<
  Pick<CustomerLedgersRow, 'point_facts' | 'credit_facts'> &
    Pick<CustomerStatesRow, 'horizon' | 'lots' | 'debt_milli' | 'tail' | 'credit_minor' | 'credit_tail'>
>;

/** A fact as migration 0009 writes it: kind, points, a collection's valid_to or a redemption's created_at, stamp, id. */
export type StoredFact = ['c' | 'r', number, string | null, string, string];
/**
 * A lot as customer_states holds it: points left, and its expiry as the milliseconds after
 * the previous lot's (the first lot's after the epoch), or null for never. Lots are stored
 * earliest expiry first, so the gaps are short numbers: every store holds every customer's
 * lots, and the absolute times were most of their bytes.
 */
export type StoredLot = [number, number | null];

export function encodeLots(lots: readonly Lot[]): string {
  let previous = 0;
  return JSON.stringify(
    lots.map(({ remaining, valid_to: validTo }): StoredLot => {
      if (validTo === null) return [remaining, null];
      const gap = validTo - previous;
      previous = validTo;
      return [remaining, gap];
    }),
  );
}

export function decodeLots(text: string): Lot[] {
  let previous = 0;
  return ledgerColumns['customer_states.lots'](text).map(([remaining, gap]) => {
    if (gap === null) return { remaining, valid_to: null };
    previous += gap;
    return { remaining, valid_to: previous };
  });
}
/** A credit fact as migration 0009 writes it: minor units (negative for a redemption), stamp, id. */
export type StoredCredit = [number, string, string];

/** The JSON columns of a customer's ledger and state: only the triggers and customer-states.ts write them, in the formats above. */
const ledgerColumns = {
  'customer_ledgers.point_facts': typedJson<StoredFact[]>(),
  'customer_ledgers.credit_facts': typedJson<StoredCredit[]>(),
  'customer_states.lots': typedJson<StoredLot[]>(),
  'customer_states.tail': typedJson<StoredFact[]>(),
  'customer_states.credit_tail': typedJson<StoredCredit[]>(),
} satisfies ColumnCodecs;

const LEDGER_COLUMNS = 'l.point_facts, l.credit_facts, s.horizon, s.lots, s.debt_milli, s.tail, s.credit_minor, s.credit_tail';

/** What a list holds instead of its facts when there are too many to list (migration 16): read them from the records. */
const IN_RECORDS = 'records';

export class CustomerLedgers {
  private readonly row;
  private readonly byCard;
  private readonly sameExpiry: Statement<[string, string | null, string], Pick<PointRecordsRow, 'id' | 'points_milli'>>;
  /** A customer's facts after a stamp, listed as migration 16's triggers list them. */
  private readonly pointFacts: Statement<[string, string], string>;
  private readonly creditFacts: Statement<[string, string], string>;

  constructor(db: Db) {
    this.row = db.prepare<[string, string], LedgerRow>(
      `SELECT ${LEDGER_COLUMNS} FROM (SELECT ? AS customer_id) c
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = ?`,
    );
    // The cash desk's lookups in one statement: on the checkout bench a second statement
    // cost more than the extra B-tree searches.
    this.byCard = db.prepare<[string], Pick<CardsRow, 'customer_id'> & LedgerRow>(
      `SELECT c.customer_id, ${LEDGER_COLUMNS} FROM cards c INDEXED BY cards_for_checkout
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = c.customer_id
       WHERE c.card_number = ? AND c.state = 1`,
    );
    this.sameExpiry = db.prepare(
      `SELECT id, points_milli FROM point_records
       WHERE customer_id = ? AND kind = 'collection' AND state = 1 AND valid_to IS ? AND hlc <= ? ORDER BY hlc DESC`,
    );
    this.pointFacts = db
      .prepare<[string, string], string>(
        `SELECT json_group_array(json_array(
           CASE kind WHEN 'collection' THEN 'c' ELSE 'r' END, points_milli, CASE kind WHEN 'collection' THEN valid_to ELSE created_at END, hlc, id
         ) ORDER BY hlc)
         FROM point_records WHERE customer_id = ? AND hlc > ? AND state = 1`,
      )
      .pluck();
    this.creditFacts = db
      .prepare<[string, string], string>(
        `SELECT json_group_array(json_array(CASE kind WHEN 'collection' THEN amount_minor ELSE -amount_minor END, hlc, id) ORDER BY hlc)
         FROM credit_records WHERE customer_id = ? AND state = 1 AND hlc > ?`,
      )
      .pluck();
  }

  balancesAt(customerId: string, at: number): Balances {
    return balancesOf(this.read(customerId), at);
  }

  /** Balances and debt from one read and one fold. */
  standingAt(customerId: string, at: number): Standing {
    const row = this.read(customerId);
    const { state } = foldFrom(startOf(row), factsOf(row));
    return { debtMilli: state.debt, pointsMilli: balanceOfState(state, at), creditMinor: creditOf(row) };
  }

  /** The holder of an active card and their balances; undefined when no active card has that number. */
  cardHolder(cardNumber: string, at: number): CardHolder | undefined {
    const row = this.byCard.get(cardNumber);
    return row && { customerId: row.customer_id, balances: balancesOf(this.listed(row.customer_id, row), at) };
  }

  /**
   * The whole fold (GET /points, a purchase's points, the fold conflicts). A record folded
   * after the horizon has what the fold left on it. One folded into the state's lots is known
   * by its expiry only: the lot of that expiry is shared out among the records of that expiry
   * this node holds, newest first, as the fold spends the oldest first — exact at the hub,
   * which holds every record; at a store, which holds only its own, the newest of its records
   * may be shown with points a record of another store has.
   */
  ledger(customerId: string, at: number): CustomerLedger {
    const row = this.read(customerId);
    const start = startOf(row);
    const facts = factsOf(row);
    const { remaining, startRemaining, state } = foldFrom(start, facts);
    const left = new Map<string, number>();
    facts.forEach((fact, index) => {
      if (fact.kind === 'collection' && fact.id !== undefined) left.set(fact.id, remaining[index]!);
    });
    const horizon = row.horizon ?? '';
    const lotLeft = new Map(start.lots.map((lot, index) => [lot.valid_to, startRemaining[index]!]));
    const shareOut = (record: PointRecordRef) => {
      let rest = lotLeft.get(record.valid_to === null ? null : Date.parse(record.valid_to)) ?? 0;
      for (const sharer of this.sameExpiry.all(customerId, record.valid_to, horizon)) {
        const share = Math.min(sharer.points_milli, rest);
        left.set(sharer.id, share);
        rest -= share;
      }
    };
    const pointsLeft = (record: PointRecordRef) => {
      if (record.kind !== 'collection' || record.state !== 1) return 0;
      if (!left.has(record.id) && record.hlc <= horizon) shareOut(record);
      return left.get(record.id) ?? 0;
    };
    return { debt: state.debt, balance: balanceOfState(state, at), creditMinor: creditOf(row), pointsLeft };
  }

  private read(customerId: string): LedgerRow {
    return this.listed(customerId, this.row.get(customerId, customerId)!);
  }

  /** The row with the facts of a list too long to keep (migration 16) read from the records. */
  private listed<Row extends LedgerRow>(customerId: string, row: Row): Row {
    if (row.point_facts !== IN_RECORDS && row.credit_facts !== IN_RECORDS) return row;
    const horizon = row.horizon ?? '';
    return {
      ...row,
      point_facts: row.point_facts === IN_RECORDS ? this.pointFacts.get(customerId, horizon)! : row.point_facts,
      credit_facts: row.credit_facts === IN_RECORDS ? this.creditFacts.get(customerId, horizon)! : row.credit_facts,
    };
  }

  /** Points left on each of these records, in their order (a page of GET /points, a purchase's points). */
  pointsLeftOn(records: readonly (PointRecordRef & { customer_id: string })[], at: number): number[] {
    const ledgers = new Map<string, CustomerLedger>();
    return records.map((record) => {
      let ledger = ledgers.get(record.customer_id);
      if (!ledger) {
        ledger = this.ledger(record.customer_id, at);
        ledgers.set(record.customer_id, ledger);
      }
      return ledger.pointsLeft(record);
    });
  }
}

function balancesOf(row: LedgerRow | undefined, at: number): Balances {
  if (!row) return { pointsMilli: 0, creditMinor: 0 };
  return { pointsMilli: balanceOfState(foldFrom(startOf(row), factsOf(row)).state, at), creditMinor: creditOf(row) };
}

/** The state's credit up to its horizon, then its credit tail and this node's later credit facts, each once. */
function creditOf(row: LedgerRow): number {
  const tail = row.credit_tail === null ? [] : ledgerColumns['customer_states.credit_tail'](row.credit_tail);
  const own = row.credit_facts === null ? [] : ledgerColumns['customer_ledgers.credit_facts'](row.credit_facts);
  const inTail = new Set(tail.map((credit) => credit[2]));
  let sum = row.credit_minor ?? 0;
  for (const [minor] of tail) sum += minor;
  for (const [minor, , id] of own) if (!inTail.has(id)) sum += minor;
  return sum;
}

function startOf(row: LedgerRow): FoldState {
  if (row.lots === null) return EMPTY_FOLD;
  return { lots: decodeLots(row.lots), debt: row.debt_milli ?? 0 };
}

/** The state's tail and this node's later facts, merged in HLC order; a fact in both counts once. */
function factsOf(row: LedgerRow): OrderedFact[] {
  const tail = row.tail === null ? [] : ledgerColumns['customer_states.tail'](row.tail);
  const own = row.point_facts === null ? [] : ledgerColumns['customer_ledgers.point_facts'](row.point_facts);
  if (tail.length === 0) return own.map(toOrderedFact);
  const seen = new Set(tail.map((fact) => fact[4]));
  const merged = [...tail, ...own.filter((fact) => !seen.has(fact[4]))];
  merged.sort((a, b) => (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0));
  return merged.map(toOrderedFact);
}

export function toOrderedFact([kind, pointsMilli, moment, , id]: StoredFact): OrderedFact {
  if (kind === 'c') return { kind: 'collection', points_milli: pointsMilli, valid_to: moment === null ? null : Date.parse(moment), id };
  return { kind: 'redemption', points_milli: pointsMilli, at: Date.parse(moment!) };
}
