/**
 * A customer's balances, the one reader every node uses: the hub's compacted state of the
 * customer (customer_states, migration 0009) folded on with this node's own facts the state
 * does not cover yet (customer_ledgers, kept by triggers). The state's lots and debt are
 * where the fold of the facts up to its horizon stands; its tail and the uncovered facts,
 * merged in HLC order, are folded from there (src/loyalty/ledger-fold.ts), so each fact
 * counts once whether it reached the hub or not. Credit never expires: its balance is the
 * state's sum plus the uncovered records' (src/loyalty/CONTEXT.md).
 */
import type { Db } from '../db/open.js';
import { balanceOfState, EMPTY_FOLD, foldFrom, type FoldState, type OrderedFact } from './ledger-fold.js';

export interface Balances {
  /** Points now, in thousandths; negative when the same points were spent twice. */
  pointsMilli: number;
  /** Credit, in minor units; negative when the same credit was spent twice. */
  creditMinor: number;
}

/** The customer an active card belongs to, with their balances. */
export interface CardHolder {
  customerId: string;
  balances: Balances;
}

/** A customer's points in full: what each collection record has left, the debt and the balance. */
export interface CustomerLedger {
  /** Points left on each collection record this node knows of, by id; absent means none. */
  available: Map<string, number>;
  /** Redeemed points no record covered. */
  debt: number;
  /** Balance now, in thousandths; negative when the same points were spent twice. */
  balance: number;
  creditMinor: number;
}

/** The columns a LEFT JOIN of customer_ledgers and customer_states gives; null where no row. */
interface LedgerRow {
  point_facts: string | null;
  credit_minor: number | null;
  lots: string | null;
  debt_milli: number | null;
  tail: string | null;
  state_credit_minor: number | null;
}

/** A fact as migration 0009 writes it: kind, points, a collection's valid_to or a redemption's created_at, stamp, id. */
export type StoredFact = ['c' | 'r', number, string | null, string, string];
/** A lot as customer_states holds it: record id, points left, valid_to in ms or null. */
export type StoredLot = [string, number, number | null];

const LEDGER_COLUMNS = 'l.point_facts, l.credit_minor, s.lots, s.debt_milli, s.tail, s.credit_minor AS state_credit_minor';

export class CustomerLedgers {
  private readonly row;
  private readonly byCard;

  constructor(db: Db) {
    this.row = db.prepare<[string, string], LedgerRow>(
      `SELECT ${LEDGER_COLUMNS} FROM (SELECT ? AS customer_id) c
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = ?`,
    );
    // The cash desk's lookups in one statement: on the checkout bench a second statement
    // cost more than the extra B-tree searches.
    this.byCard = db.prepare<[string], { customer_id: string } & LedgerRow>(
      `SELECT c.customer_id, ${LEDGER_COLUMNS} FROM cards c INDEXED BY cards_for_checkout
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id LEFT JOIN customer_states s ON s.id = c.customer_id
       WHERE c.card_number = ? AND c.state = 1`,
    );
  }

  balancesAt(customerId: string, at: number): Balances {
    return balancesOf(this.row.get(customerId, customerId)!, at);
  }

  /** The holder of an active card and their balances; undefined when no active card has that number. */
  cardHolder(cardNumber: string, at: number): CardHolder | undefined {
    const row = this.byCard.get(cardNumber);
    return row && { customerId: row.customer_id, balances: balancesOf(row, at) };
  }

  /** The whole fold, with what each collection record has left (GET /points, the fold conflicts). */
  ledger(customerId: string, at: number): CustomerLedger {
    const row = this.row.get(customerId, customerId)!;
    const start = startOf(row);
    const facts = factsOf(row);
    const { remaining, state } = foldFrom(start, facts);
    const available = new Map<string, number>();
    for (const lot of start.lots) if (lot.id !== undefined) available.set(lot.id, 0);
    for (const lot of state.lots) if (lot.id !== undefined) available.set(lot.id, lot.remaining);
    facts.forEach((fact, index) => {
      if (fact.kind === 'collection' && fact.id !== undefined) available.set(fact.id, remaining[index]!);
    });
    return { available, debt: state.debt, balance: balanceOfState(state, at), creditMinor: creditOf(row) };
  }
}

function balancesOf(row: LedgerRow | undefined, at: number): Balances {
  if (!row) return { pointsMilli: 0, creditMinor: 0 };
  return { pointsMilli: balanceOfState(foldFrom(startOf(row), factsOf(row)).state, at), creditMinor: creditOf(row) };
}

function creditOf(row: LedgerRow): number {
  return (row.state_credit_minor ?? 0) + (row.credit_minor ?? 0);
}

function startOf(row: LedgerRow): FoldState {
  if (row.lots === null) return EMPTY_FOLD;
  const lots = (JSON.parse(row.lots) as StoredLot[]).map(([id, remaining, validTo]) => ({ id, remaining, valid_to: validTo }));
  return { lots, debt: row.debt_milli ?? 0 };
}

/** The state's tail and the uncovered facts, merged in HLC order; a fact in both counts once. */
function factsOf(row: LedgerRow): OrderedFact[] {
  const tail = row.tail === null ? [] : (JSON.parse(row.tail) as StoredFact[]);
  const own = row.point_facts === null ? [] : (JSON.parse(row.point_facts) as StoredFact[]);
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
