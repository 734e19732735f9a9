/** Loyalty cards: the POS identifies customers by card number. */
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { IdGenerator } from '../../sync/ids.js';
import { formatTimestamp } from '../../time.js';
import type { CustomersRepo } from './customers.repo.js';
import type { CardsRepo } from './cards.repo.js';
import type { CardRow, CardsQuery, CreateCard } from './cards.schemas.js';

export class CardsService {
  constructor(
    private readonly repo: CardsRepo,
    private readonly customers: CustomersRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  list(query: CardsQuery, context: RequestContext) {
    const page = this.repo.page({ ...query, customer_id: customerFilter(context, query.customer_id) }, query);
    return { cards: page.items.map((row) => this.toCard(row)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.byId(id);
    if (!row) throw notFound('cards', id);
    assertOwnRecord(context, row.customer_id, 'card_id', id);
    return this.toCard(row);
  }

  create(request: CreateCard, context: RequestContext): { card_id: string } {
    assertOwnRecord(context, request.card.customer_id, 'card.customer_id', request.card.customer_id);
    return this.insert(request, true);
  }

  /** One card of an import file, loaded as master data, not queued as a command. */
  importRecord(request: CreateCard): void {
    this.insert(request, false);
  }

  private insert(request: CreateCard, queued: boolean): { card_id: string } {
    const { card } = request;
    if (!this.customers.credentialsById(card.customer_id)) throw invalidParam('card.customer_id', 'not_found', card.customer_id);
    if (this.repo.idByNumber(card.card_number)) throw invalidParam('card.card_number', 'already_exists', card.card_number);
    const id = this.newId();
    const row = {
      id,
      customer_id: card.customer_id,
      card_number: card.card_number,
      card_type_id: card.card_type_id ?? null,
      valid_from: card.valid_from ?? null,
      valid_to: card.valid_to ?? null,
      state: 1,
    };
    this.writes.write(queued ? { kind: 'cards.create', payload: row } : null, (tx) => this.repo.insert(tx, row));
    return { card_id: id };
  }

  private toCard(row: CardRow) {
    return {
      card_id: row.id,
      customer_id: row.customer_id,
      card_type_id: row.card_type_id,
      card_number: row.card_number,
      valid_from: row.valid_from,
      valid_to: row.valid_to,
      last_change: formatTimestamp(row.last_change, this.timeZone, true),
      state: row.state,
    };
  }
}
