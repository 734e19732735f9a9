/** Loyalty cards: the POS identifies customers by card number. */
import { systemClock, type Clock } from '../../core/clock.js';
import type { Row, WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, loggedInCustomer, customerFilter } from '../../http/customer-scope.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import { toCard } from './cards.mappers.js';
import type { CardFilters, CardsRepo } from './cards.repo.js';
import type { CardCreated, CardInput, CardsAnswer, CardsQuery, CreateCard, CustomerCardsQuery, UpdateCard } from './cards.schemas.js';
import type { CustomersRepo } from './customers.repo.js';

/** What CardsService is built from. */
export interface CardsServiceOptions {
  repo: CardsRepo;
  customers: CustomersRepo;
  writes: WritePath;
  newId: IdGenerator;
  timeZone: string;
  clock?: Clock;
}

export class CardsService {
  private readonly repo: CardsRepo;
  private readonly customers: CustomersRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly timeZone: string;
  private readonly clock: Clock;

  constructor(options: CardsServiceOptions) {
    const { repo, customers, writes, newId, timeZone, clock = systemClock } = options;
    this.repo = repo;
    this.customers = customers;
    this.writes = writes;
    this.newId = newId;
    this.timeZone = timeZone;
    this.clock = clock;
  }

  list(query: CardsQuery, context: RequestContext) {
    return this.page({ ...query, customer_id: customerFilter(context, query.customer_id) });
  }

  listOfCustomer(customerId: string, query: CustomerCardsQuery, context: RequestContext) {
    if (!this.customers.credentialsById(customerId)) throw notFound('customers', customerId);
    assertOwnRecord(context, customerId, 'customer_id', customerId);
    return this.page({ ...query, customer_id: customerId });
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.byId(id);
    if (!row) throw notFound('cards', id);
    assertOwnRecord(context, row.customer_id, 'card_id', id);
    return toCard(row, this.timeZone);
  }

  create(request: CreateCard): CardCreated {
    return this.insert(request, true);
  }

  /** One card of an import file, loaded as master data, not queued as a command. */
  importRecord(request: CreateCard): void {
    this.insert(request, false);
  }

  private page(query: CustomerCardsQuery & { customer_id: string | undefined }): CardsAnswer {
    const filters: CardFilters = {
      customer_id: query.customer_id,
      card_number: query.card_number,
      card_numbers: query.card_number_list,
      secondary: query.search_secondary_card_number,
      card_type_id: query.card_type_id,
      state: query.state,
      validAt: query.is_valid === undefined ? undefined : { at: new Date(this.clock()).toISOString(), valid: query.is_valid },
    };
    const page = this.repo.page(filters, query);
    return { cards: page.items.map((row) => toCard(row, this.timeZone)), total_items: page.total };
  }

  private insert(request: CreateCard, queued: boolean): { card_id: string } {
    const { card } = request;
    this.checkReferences(card, undefined);
    const validFrom = this.instant('card.valid_from', card.valid_from);
    const validTo = this.instant('card.valid_to', card.valid_to);
    checkValidity(validFrom, validTo);
    const id = this.newId();
    const row = {
      id,
      customer_id: card.customer_id,
      card_number: card.card_number,
      secondary_card_number: card.secondary_card_number ?? null,
      card_type_id: card.card_type_id ?? null,
      valid_from: validFrom,
      valid_to: validTo,
      store_id: card.store_id ?? null,
      state: card.state ?? 1,
    };
    this.writes.write(queued ? { kind: 'cards.create', payload: row } : null, (tx) => this.repo.insert(tx, row));
    return { card_id: id };
  }

  /** A customer may change its own cards, and cannot hand one to another customer. */
  update(id: string, request: UpdateCard, context: RequestContext): void {
    const row = this.repo.byId(id);
    if (!row) throw notFound('cards', id);
    assertOwnRecord(context, row.customer_id, 'card_id', id);
    const { card } = request;
    if (card.customer_id !== undefined) assertOwnRecord(context, card.customer_id, 'card.customer_id', card.customer_id);
    // A card blocked by the shop (lost, stolen, misused) is unblocked by the shop, not by a
    // customer's app: the customer interface may block its card, never reactivate it.
    if (loggedInCustomer(context) !== undefined && card.state === 1 && row.state !== 1) {
      throw invalidParam('card.state', 'not_allowed_value', card.state, 'A blocked card is reactivated by the shop');
    }
    this.checkReferences(card, row.id);
    const changes: Row = {};
    for (const key of ['customer_id', 'card_number', 'secondary_card_number', 'card_type_id', 'store_id', 'state'] as const) {
      const value = card[key];
      if (value !== undefined) changes[key] = value;
    }
    const validFrom = card.valid_from === undefined ? row.valid_from : this.instant('card.valid_from', card.valid_from);
    const validTo = card.valid_to === undefined ? row.valid_to : this.instant('card.valid_to', card.valid_to);
    checkValidity(validFrom, validTo);
    if (card.valid_from !== undefined) changes.valid_from = validFrom;
    if (card.valid_to !== undefined) changes.valid_to = validTo;
    if (Object.keys(changes).length === 0) return;
    this.writes.write({ kind: 'cards.update', payload: { id, ...changes } }, (tx) => this.repo.update(tx, id, changes));
  }

  /** The holder and store must exist, and a card number belongs to one card only. */
  private checkReferences(card: Partial<CardInput>, cardId: string | undefined): void {
    if (card.customer_id !== undefined && !this.customers.credentialsById(card.customer_id)) {
      throw invalidParam('card.customer_id', 'not_found', card.customer_id);
    }
    if (card.card_number !== undefined) {
      const numbered = this.repo.idByNumber(card.card_number);
      if (numbered !== undefined && numbered !== cardId) throw invalidParam('card.card_number', 'already_exists', card.card_number);
    }
    if (card.store_id && !this.customers.hasStore(card.store_id)) throw invalidParam('card.store_id', 'not_found', card.store_id);
  }

  /** A validity bound as a UTC instant; a bare date is midnight in the store's time zone. */
  private instant(name: string, text: string | null | undefined): string | null {
    if (text === undefined || text === null || text === '') return null;
    const ms = parseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text} 00:00:00` : text, this.timeZone);
    if (ms === undefined) throw invalidParam(name, 'invalid_value_format', text, 'must be YYYY-MM-DD HH:MM:SS or ISO 8601');
    return new Date(ms).toISOString();
  }
}

function checkValidity(validFrom: string | null, validTo: string | null): void {
  if (validFrom && validTo && validTo < validFrom) throw invalidParam('card.valid_to', 'not_allowed_value', validTo, 'valid_to is before valid_from');
}
