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

/** As migration 0006 writes a fact: a collection's valid_to, a redemption's created_at. */
type StoredFact = ['c', number, string | null] | ['r', number, string];

export class CustomerLedgers {
  private readonly row;

  constructor(db: Db) {
    this.row = db.prepare<[string], { point_facts: string; credit_minor: number }>(
      'SELECT point_facts, credit_minor FROM customer_ledgers WHERE customer_id = ?',
    );
  }

  balancesAt(customerId: string, at: number): Balances {
    const row = this.row.get(customerId);
    if (!row) return { pointsMilli: 0, creditMinor: 0 };
    const facts = (JSON.parse(row.point_facts) as StoredFact[]).map(toOrderedFact);
    return { pointsMilli: balanceInOrder(facts, at), creditMinor: row.credit_minor };
  }
}

function toOrderedFact([kind, pointsMilli, moment]: StoredFact): OrderedFact {
  if (kind === 'c') return { kind: 'collection', points_milli: pointsMilli, valid_to: moment === null ? null : Date.parse(moment) };
  return { kind: 'redemption', points_milli: pointsMilli, at: Date.parse(moment) };
}
