import { spelt, type Dialect } from '../../db/dialect.js';
import { equals, ListQueries, oneOf, type Filter } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CustomersRow, StoresRow } from '../../db/tables.generated.js';
import type { CUSTOMER_SORT_FIELDS } from './customers.schemas.js';

const COLUMNS =
  'c.id, c.gender, c.first_name, c.last_name, c.birthdate, c.email, c.phone, c.language_id, c.store_id, c.address, c.agreement, c.state, c.last_change';

/** A customer as the API reads them: every column but the password hash and the stamp. */
export type CustomerRow = Omit<CustomersRow, 'password_hash' | 'hlc'>;

/** Sortable first-level fields of Customer and their columns. */
const SORTABLE: Record<(typeof CUSTOMER_SORT_FIELDS)[number], string> = { customer_id: 'c.id' };

/**
 * An e-mail address matches in any letter case of ASCII: SQLite compares with NOCASE, which its
 * index customers_by_email (email COLLATE NOCASE) keeps; PostgreSQL's index is on lower(email),
 * whose C collation folds the same letters.
 */
function sameEmail(column: string): Record<Dialect, string> {
  return { sqlite: `${column} = ? COLLATE NOCASE`, postgres: `lower(${column}) = lower(?)` };
}

export interface CustomerFilters {
  /** The logged-in customer in the customer interface. */
  id?: string;
  ids?: string[];
  email?: string;
  emails?: string[];
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
  private readonly idByCardNumber;
  private readonly row;
  private readonly store;
  private readonly emailHolders;
  private readonly lists;

  constructor(db: Db) {
    const emailIs = spelt(db, sameEmail('email'));
    this.byId = db.prepare<[string], CustomerCredentials>('SELECT id, email, password_hash, state FROM customers WHERE id = ?');
    this.byEmail = db.prepare<[string], CustomerCredentials>(
      `SELECT id, email, password_hash, state FROM customers WHERE ${emailIs} ORDER BY state = 1 DESC, id LIMIT 1`,
    );
    this.byCardNumber = db.prepare<[string], CustomerCredentials>(
      `SELECT c.id, c.email, c.password_hash, c.state FROM cards k JOIN customers c ON c.id = k.customer_id
       WHERE k.card_number = ? AND k.state = 1`,
    );
    // The cash desk needs only the id: one search of an index that holds it (cards_for_checkout),
    // no table row and no join to customers. SQLite would pick the unique index on
    // card_number and read the row; INDEXED BY keeps the plan, or fails loudly without it.
    // PostgreSQL's planner takes no such hint.
    this.idByCardNumber = db
      .prepare<[string], string>(
        `SELECT customer_id FROM cards ${spelt(db, { sqlite: 'INDEXED BY cards_for_checkout', postgres: '' })} WHERE card_number = ? AND state = 1`,
      )
      .pluck();
    this.row = db.prepare<[string], CustomerRow>(`SELECT ${COLUMNS} FROM customers c WHERE c.id = ?`);
    this.store = db.prepare<[string], Pick<StoresRow, 'id'>>('SELECT id FROM stores WHERE id = ?');
    this.emailHolders = db.prepare<[string], Pick<CustomersRow, 'id'>>(`SELECT id FROM customers WHERE ${emailIs} AND state <> 0 LIMIT 2`);
    this.lists = new ListQueries(db);
  }

  hasStore(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  rowById(id: string): CustomerRow | undefined {
    return this.row.get(id);
  }

  /** Ids of (at most two) customers, not deleted, that have this e-mail address. */
  idsByEmail(email: string): string[] {
    return this.emailHolders.all(email).map((holder) => holder.id);
  }

  page(filters: CustomerFilters, paging: Paging): Page<CustomerRow> {
    return this.lists.page(
      {
        from: 'customers c',
        select: COLUMNS,
        filters: [
          equals('c.id', filters.id),
          oneOf('c.id', filters.ids),
          filters.email === undefined ? undefined : { sql: sameEmail('c.email'), params: [filters.email] },
          emailIn(filters.emails),
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
        listedAs: 'c',
      },
      paging,
    );
  }

  updateCustomer(tx: WriteTransaction, id: string, row: Partial<WrittenRow<'customers'>>): void {
    tx.update('customers', id, row);
  }

  insertSourceRecord(tx: WriteTransaction, row: WrittenRow<'customer_source_records'>): void {
    tx.insert('customer_source_records', row);
  }

  /** Makes a customer-interface token a session of this customer (autologin at registration). */
  startSession(tx: WriteTransaction, tokenId: string, customerId: string): void {
    tx.update('tokens', tokenId, { customer_id: customerId });
  }

  credentialsById(id: string): CustomerCredentials | undefined {
    return this.byId.get(id);
  }

  /** The customer holding this e-mail address, in any letter case: an active one before one that is not. */
  credentialsByEmail(email: string): CustomerCredentials | undefined {
    return this.byEmail.get(email);
  }

  credentialsByCardNumber(cardNumber: string): CustomerCredentials | undefined {
    return this.byCardNumber.get(cardNumber);
  }

  customerIdByCardNumber(cardNumber: string): string | undefined {
    return this.idByCardNumber.get(cardNumber);
  }

  insertCustomer(tx: WriteTransaction, row: WrittenRow<'customers'>): void {
    tx.insert('customers', row);
  }

  insertCard(tx: WriteTransaction, row: WrittenRow<'cards'>): void {
    tx.insert('cards', row);
  }

  setPasswordHash(tx: WriteTransaction, customerId: string, passwordHash: string): void {
    tx.update('customers', customerId, { password_hash: passwordHash });
  }
}

function emailIn(emails: string[] | undefined): Filter {
  if (emails === undefined || emails.length === 0) return undefined;
  const list = (each: string) => emails.map(() => each).join(', ');
  return { sql: { sqlite: `c.email COLLATE NOCASE IN (${list('?')})`, postgres: `lower(c.email) IN (${list('lower(?)')})` }, params: emails };
}
