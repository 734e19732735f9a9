import { equals, ListQueries } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { Row, WriteTransaction } from '../../db/write-path.js';
import type { Page, Paging } from '../../http/paging.js';
import type { CustomerRow } from './customers.schemas.js';

const COLUMNS = 'c.id, c.gender, c.first_name, c.last_name, c.birthdate, c.email, c.phone, c.language_id, c.store_id, c.address, c.agreement, c.state, c.last_change';

/** Sortable first-level fields of Customer and their columns. */
const SORTABLE = { customer_id: 'c.id', last_change: 'c.last_change', state: 'c.state' };

export interface CustomerFilters {
  id?: string;
  email?: string;
  phone?: string;
  customer_source_id?: string;
  first_name?: string;
  last_name?: string;
  birthdate?: string;
}

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
  private readonly row;
  private readonly store;
  private readonly lists;

  constructor(db: Db) {
    this.byId = db.prepare<[string], CustomerCredentials>('SELECT id, email, password_hash, state FROM customers WHERE id = ?');
    this.byEmail = db.prepare<[string], CustomerCredentials>(
      'SELECT id, email, password_hash, state FROM customers WHERE email = ? COLLATE NOCASE AND state = 1 ORDER BY id LIMIT 1',
    );
    this.byCardNumber = db.prepare<[string], CustomerCredentials>(
      `SELECT c.id, c.email, c.password_hash, c.state FROM cards k JOIN customers c ON c.id = k.customer_id
       WHERE k.card_number = ? AND k.state = 1`,
    );
    this.row = db.prepare<[string], CustomerRow>(`SELECT ${COLUMNS} FROM customers c WHERE c.id = ?`);
    this.store = db.prepare<[string], { id: string }>('SELECT id FROM stores WHERE id = ?');
    this.lists = new ListQueries(db);
  }

  hasStore(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  rowById(id: string): CustomerRow | undefined {
    return this.row.get(id);
  }

  page(filters: CustomerFilters, paging: Paging): Page<CustomerRow> {
    return this.lists.page(
      {
        from: 'customers c',
        select: COLUMNS,
        filters: [
          equals('c.id', filters.id),
          filters.email === undefined ? undefined : { sql: 'c.email = ? COLLATE NOCASE', params: [filters.email] },
          equals('c.phone', filters.phone),
          equals('c.first_name', filters.first_name),
          equals('c.last_name', filters.last_name),
          equals('c.birthdate', filters.birthdate),
          filters.customer_source_id === undefined
            ? undefined
            : { sql: 'c.id IN (SELECT customer_id FROM customer_source_records WHERE customer_source_id = ?)', params: [filters.customer_source_id] },
        ],
        sortable: SORTABLE,
        defaultSort: 'customer_id',
        tieBreaker: 'c.id',
      },
      paging,
    );
  }

  updateCustomer(tx: WriteTransaction, id: string, row: Row): void {
    tx.update('customers', id, row);
  }

  insertSourceRecord(tx: WriteTransaction, row: Row): void {
    tx.insert('customer_source_records', row);
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
