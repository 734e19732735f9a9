import { equals, ListQueries, oneOf, type Filter } from '../../db/list-query.js';
import type { Db } from '../../db/open.js';
import type { WriteTransaction, WrittenRow } from '../../db/write-path.js';
import type { Page, Paging } from '../../core/paging.js';
import type { CardsRow } from '../../db/tables.generated.js';
import type { CARD_SORT_FIELDS } from './cards.schemas.js';

const COLUMNS = 'id, customer_id, card_number, secondary_card_number, card_type_id, valid_from, valid_to, store_id, state, last_change';

export type CardRow = Omit<CardsRow, 'hlc'>;

/** Sortable first-level fields of Card and their columns. */
const SORTABLE: Record<(typeof CARD_SORT_FIELDS)[number], string> = {
  card_id: 'id',
  customer_id: 'customer_id',
  card_type_id: 'card_type_id',
  card_number: 'card_number',
  secondary_card_number: 'secondary_card_number',
};

export interface CardFilters {
  customer_id?: string;
  card_number?: string;
  /** Any of these numbers. */
  card_numbers?: string[];
  /** The number filters search `secondary_card_number` instead of `card_number`. */
  secondary?: boolean;
  card_type_id?: string;
  state?: number;
  /** Cards within (valid) or outside (not valid) their validity at the instant `at`. */
  validAt?: { at: string; valid: boolean };
}

export class CardsRepo {
  private readonly one;
  private readonly byNumber;
  private readonly lists;

  constructor(db: Db) {
    this.one = db.prepare<[string], CardRow>(`SELECT ${COLUMNS} FROM cards WHERE id = ?`);
    this.byNumber = db.prepare<[string], Pick<CardsRow, 'id'>>('SELECT id FROM cards WHERE card_number = ?');
    this.lists = new ListQueries(db);
  }

  byId(id: string): CardRow | undefined {
    return this.one.get(id);
  }

  idByNumber(cardNumber: string): string | undefined {
    return this.byNumber.get(cardNumber)?.id;
  }

  page(filters: CardFilters, paging: Paging): Page<CardRow> {
    const numberColumn = filters.secondary ? 'secondary_card_number' : 'card_number';
    return this.lists.page(
      {
        from: 'cards',
        select: COLUMNS,
        filters: [
          equals('customer_id', filters.customer_id),
          equals(numberColumn, filters.card_number),
          oneOf(numberColumn, filters.card_numbers),
          equals('card_type_id', filters.card_type_id),
          equals('state', filters.state),
          validity(filters.validAt),
        ],
        sortable: SORTABLE,
        defaultSort: 'card_id',
      },
      paging,
    );
  }

  insert(tx: WriteTransaction, row: WrittenRow<'cards'>): void {
    tx.insert('cards', row);
  }

  update(tx: WriteTransaction, id: string, changes: Partial<WrittenRow<'cards'>>): void {
    tx.update('cards', id, changes);
  }
}

function validity(filter: CardFilters['validAt']): Filter {
  if (!filter) return undefined;
  const within = '(valid_from IS NULL OR valid_from <= ?) AND (valid_to IS NULL OR valid_to >= ?)';
  return { sql: filter.valid ? `(${within})` : `NOT (${within})`, params: [filter.at, filter.at] };
}
