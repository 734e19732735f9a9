/**
 * A customer's credit (DESIGN §6): a money balance, the fold of their credit records —
 * collections less redemptions, in minor units. Credit never expires, so the fold is a sum,
 * which SQLite takes, and the same facts give the same balance on every node, whatever
 * order they arrived in. A balance below zero (the same credit spent in two stores offline,
 * or credit back taken back by a return after it was spent) is kept and listed
 * (src/sync/fold-conflicts.ts).
 */
import type { Db } from '../db/open.js';
import type { CreditRecordsRow } from '../db/tables.generated.js';
import type { WriteTransaction } from '../db/write-path.js';
import type { CreditRecord } from './ledger-records.js';

export type CreditRow = Pick<CreditRecordsRow, 'id' | 'customer_id' | 'kind' | 'amount_minor' | 'purchase_id' | 'linked_credit_id' | 'hlc'>;

const COLUMNS = 'id, customer_id, kind, amount_minor, purchase_id, linked_credit_id, hlc';

export class CreditsRepo {
  private readonly one;
  private readonly ofPurchase;

  constructor(db: Db) {
    this.one = db.prepare<[string], CreditRow>(`SELECT ${COLUMNS} FROM credit_records WHERE id = ?`);
    this.ofPurchase = db.prepare<[string], CreditRow>(`SELECT ${COLUMNS} FROM credit_records WHERE purchase_id = ? AND state = 1`);
  }

  byId(id: string): CreditRow | undefined {
    return this.one.get(id);
  }

  recordsOfPurchase(purchaseId: string): CreditRow[] {
    return this.ofPurchase.all(purchaseId);
  }

  insert(tx: WriteTransaction, record: CreditRecord): void {
    tx.insert('credit_records', record);
  }
}
