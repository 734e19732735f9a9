/** Customer source records: the systems where a customer's account was made or is known. */
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { IdGenerator } from '../../core/ids.js';
import type { CustomerSourceRecordsRepo } from './customer-source-records.repo.js';
import { toCustomerSourceRecord } from './customer-source-records.mappers.js';
import type {
  CreateCustomerSourceRecord,
  CustomerSourceRecordsOfCustomerQuery,
  CustomerSourceRecordsQuery,
} from './customer-source-records.schemas.js';
import type { CustomersRepo } from './customers.repo.js';

/** What CustomerSourceRecordsService is built from. */
export interface CustomerSourceRecordsServiceOptions {
  repo: CustomerSourceRecordsRepo;
  customers: CustomersRepo;
  writes: WritePath;
  newId: IdGenerator;
  timeZone: string;
}

export class CustomerSourceRecordsService {
  private readonly repo: CustomerSourceRecordsRepo;
  private readonly customers: CustomersRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly timeZone: string;

  constructor(options: CustomerSourceRecordsServiceOptions) {
    const { repo, customers, writes, newId, timeZone } = options;
    this.repo = repo;
    this.customers = customers;
    this.writes = writes;
    this.newId = newId;
    this.timeZone = timeZone;
  }

  list(query: CustomerSourceRecordsQuery, context: RequestContext) {
    return this.page({ ...query, customer_id: customerFilter(context, query.customer_id) });
  }

  listOfCustomer(customerId: string, query: CustomerSourceRecordsOfCustomerQuery, context: RequestContext) {
    this.assertCustomer(customerId, context);
    return this.page({ ...query, customer_id: customerId });
  }

  /** A customer has one record per source: a second one is a relation that already exists. */
  create(customerId: string, request: CreateCustomerSourceRecord, context: RequestContext): { customer_source_record_id: string } {
    this.assertCustomer(customerId, context);
    const source = request.customer_source_record;
    if (this.repo.idOfCustomerAndSource(customerId, source.customer_source_id)) {
      throw invalidParam('customer_source_record.customer_source_id', 'relation_already_exists', source.customer_source_id);
    }
    const row = { id: this.newId(), customer_id: customerId, customer_source_id: source.customer_source_id, external_id: source.external_id ?? null };
    this.writes.write({ kind: 'customer-source-records.create', payload: row }, (tx) => this.customers.insertSourceRecord(tx, row));
    return { customer_source_record_id: row.id };
  }

  private page(query: CustomerSourceRecordsOfCustomerQuery & { customer_id: string | undefined }) {
    // OpenAPI: `external_ids` wins over the older `external_id` when both are given.
    const externalIds = query.external_ids ?? (query.external_id === undefined ? undefined : [query.external_id]);
    const page = this.repo.page({ customer_id: query.customer_id, customer_source_id: query.customer_source_id, external_ids: externalIds }, query);
    return { customer_source_records: page.items.map((row) => toCustomerSourceRecord(row, this.timeZone)), total_items: page.total };
  }

  private assertCustomer(customerId: string, context: RequestContext): void {
    if (!this.customers.credentialsById(customerId)) throw notFound('customers', customerId);
    assertOwnRecord(context, customerId, 'customer_id', customerId);
  }
}
