import type { Db } from '../../db/open.js';
import type { Row, WriteTransaction } from '../../db/write-path.js';

export interface CustomerCredentials {
  id: string;
  email: string | null;
  password_hash: string | null;
  state: number;
}

export class CustomersRepo {
  private readonly byId;
  private readonly byEmail;
  private readonly byCardNumber;

  constructor(db: Db) {
    this.byId = db.prepare<[string], CustomerCredentials>('SELECT id, email, password_hash, state FROM customers WHERE id = ?');
    this.byEmail = db.prepare<[string], CustomerCredentials>(
      'SELECT id, email, password_hash, state FROM customers WHERE email = ? COLLATE NOCASE AND state = 1 ORDER BY id LIMIT 1',
    );
    this.byCardNumber = db.prepare<[string], CustomerCredentials>(
      `SELECT c.id, c.email, c.password_hash, c.state FROM cards k JOIN customers c ON c.id = k.customer_id
       WHERE k.card_number = ? AND k.state = 1`,
    );
  }

  credentialsById(id: string): CustomerCredentials | undefined {
    return this.byId.get(id);
  }

  credentialsByEmail(email: string): CustomerCredentials | undefined {
    return this.byEmail.get(email);
  }

  credentialsByCardNumber(cardNumber: string): CustomerCredentials | undefined {
    return this.byCardNumber.get(cardNumber);
  }

  insertCustomer(tx: WriteTransaction, row: Row): void {
    tx.insert('customers', row);
  }

  insertCard(tx: WriteTransaction, row: Row): void {
    tx.insert('cards', row);
  }

  setPasswordHash(tx: WriteTransaction, customerId: string, passwordHash: string): void {
    tx.update('customers', customerId, { password_hash: passwordHash });
  }
}
