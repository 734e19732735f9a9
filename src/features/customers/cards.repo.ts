import { equals, ListQueries } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { Row, WriteTransaction } from '../../db/write-path.js';
import type { Page, Paging } from '../../http/paging.js';
import type { CardRow } from './cards.schemas.js';

const COLUMNS = 'id, customer_id, card_number, card_type_id, valid_from, valid_to, state, last_change';

/** Sortable first-level fields of Card and their columns. */
const SORTABLE = { card_id: 'id', customer_id: 'customer_id', card_number: 'card_number', card_type_id: 'card_type_id', valid_to: 'valid_to', last_change: 'last_change', state: 'state' };

export class CardsRepo {
  private readonly one;
  private readonly byNumber;
  private readonly lists;

  constructor(db: Db) {
    this.one = db.prepare<[string], CardRow>(`SELECT ${COLUMNS} FROM cards WHERE id = ?`);
    this.byNumber = db.prepare<[string], { id: string }>('SELECT id FROM cards WHERE card_number = ?');
    this.lists = new ListQueries(db);
  }

  byId(id: string): CardRow | undefined {
    return this.one.get(id);
  }

  idByNumber(cardNumber: string): string | undefined {
    return this.byNumber.get(cardNumber)?.id;
  }

  page(filters: { customer_id?: string; card_number?: string; card_type_id?: string }, paging: Paging): Page<CardRow> {
    return this.lists.page(
      {
        from: 'cards',
        select: COLUMNS,
        filters: [equals('customer_id', filters.customer_id), equals('card_number', filters.card_number), equals('card_type_id', filters.card_type_id)],
        sortable: SORTABLE,
        defaultSort: 'card_id',
        tieBreaker: 'id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: Row): void {
    tx.insert('cards', row);
  }
}
