import type { Db } from '../db/open.js';
import type { Row, WriteTransaction } from '../db/write-path.js';

export interface CreditRow {
  id: string;
  customer_id: string;
  kind: 'collection' | 'redemption';
  amount_minor: number;
  purchase_id: string | null;
  linked_credit_id: string | null;
  hlc: string;
}

const COLUMNS = 'id, customer_id, kind, amount_minor, purchase_id, linked_credit_id, hlc';

export class CreditsRepo {
  private readonly one;
  private readonly ofCustomer;
  private readonly ofPurchase;

  constructor(db: Db) {
    this.one = db.prepare<[string], CreditRow>(`SELECT ${COLUMNS} FROM credit_records WHERE id = ?`);
    this.ofCustomer = db.prepare<[string], CreditRow>(`SELECT ${COLUMNS} FROM credit_records WHERE customer_id = ? AND state = 1`);
    this.ofPurchase = db.prepare<[string], CreditRow>(`SELECT ${COLUMNS} FROM credit_records WHERE purchase_id = ? AND state = 1`);
  }

  byId(id: string): CreditRow | undefined {
    return this.one.get(id);
  }

  recordsOfCustomer(customerId: string): CreditRow[] {
    return this.ofCustomer.all(customerId);
  }

  recordsOfPurchase(purchaseId: string): CreditRow[] {
    return this.ofPurchase.all(purchaseId);
  }

  insert(tx: WriteTransaction, row: Row): void {
    tx.insert('credit_records', row);
  }
}
