/**
 * A customer's balances as the cash desk reads them: one row of customer_ledgers (migration
 * 0006), which triggers keep equal to their live point records, in HLC order, and their
 * credit balance. The points balance is the same fold readLedger takes over the records
 * (test/unit/ledger-balance.test.ts holds them equal).
 */
import type { Db } from '../db/open.js';
import { balanceInOrder, type OrderedFact } from './ledger-fold.js';

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

/** A customer_ledgers row; null in both columns when a LEFT JOIN found none. */
interface LedgerRow {
  point_facts: string | null;
  credit_minor: number | null;
}

/** As migration 0006 writes a fact: a collection's valid_to, a redemption's created_at. */
type StoredFact = ['c', number, string | null] | ['r', number, string];

export class CustomerLedgers {
  private readonly row;
  private readonly byCard;

  constructor(db: Db) {
    this.row = db.prepare<[string], LedgerRow>('SELECT point_facts, credit_minor FROM customer_ledgers WHERE customer_id = ?');
    // The cash desk's two lookups in one statement: on the checkout bench a second
    // statement cost more than the second B-tree search.
    this.byCard = db.prepare<[string], { customer_id: string } & LedgerRow>(
      `SELECT c.customer_id, l.point_facts, l.credit_minor FROM cards c INDEXED BY cards_for_checkout
       LEFT JOIN customer_ledgers l ON l.customer_id = c.customer_id WHERE c.card_number = ? AND c.state = 1`,
    );
  }

  balancesAt(customerId: string, at: number): Balances {
    return balancesOf(this.row.get(customerId), at);
  }

  /** The holder of an active card and their balances; undefined when no active card has that number. */
  cardHolder(cardNumber: string, at: number): CardHolder | undefined {
    const row = this.byCard.get(cardNumber);
    return row && { customerId: row.customer_id, balances: balancesOf(row, at) };
  }
}

function balancesOf(row: LedgerRow | undefined, at: number): Balances {
  if (!row || row.point_facts === null) return { pointsMilli: 0, creditMinor: 0 };
  const facts = (JSON.parse(row.point_facts) as StoredFact[]).map(toOrderedFact);
  return { pointsMilli: balanceInOrder(facts, at), creditMinor: row.credit_minor ?? 0 };
}

function toOrderedFact([kind, pointsMilli, moment]: StoredFact): OrderedFact {
  if (kind === 'c') return { kind: 'collection', points_milli: pointsMilli, valid_to: moment === null ? null : Date.parse(moment) };
  return { kind: 'redemption', points_milli: pointsMilli, at: Date.parse(moment) };
}
