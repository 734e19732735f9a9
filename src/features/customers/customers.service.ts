/**
 * Customers: reads for the POS and apps, and the writes head office needs to load and
 * change master data. In the customer interface a logged-in customer sees and changes only
 * itself; an app with a token and no customer yet may register one.
 */
import { hashPassword } from '../../auth/passwords.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { IdGenerator } from '../../sync/ids.js';
import { personalInformationColumns, toCustomer } from './customers.mappers.js';
import type { CustomersRepo } from './customers.repo.js';
import type { CreateCustomer, CustomersQuery, ImportedCustomer, PersonalInformation, UpdateCustomer } from './customers.schemas.js';

export class CustomersService {
  constructor(
    private readonly repo: CustomersRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  list(query: CustomersQuery, context: RequestContext) {
    const page = this.repo.page({ ...query, id: customerFilter(context, undefined) }, query);
    return { customers: page.items.map((row) => toCustomer(row, this.timeZone)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.rowById(id);
    if (!row) throw notFound('customers', id);
    assertOwnRecord(context, row.id, 'customer_id', id);
    return toCustomer(row, this.timeZone);
  }

  async create(request: CreateCustomer): Promise<{ customer_id: string }> {
    this.checkReferences(request.customer.personal_information);
    const passwordHash = request.password ? await hashPassword(request.password) : null;
    return this.insert(request, passwordHash, this.newId(), true);
  }

  /**
   * One customer of an import file (`loyaltyd import customers`): the API's structure with
   * the id it has in the source system, loaded as master data, not queued as a command.
   */
  importRecord(record: ImportedCustomer): void {
    if (record.password !== undefined) throw invalidParam('password', 'not_allowed_value', undefined, 'Imports carry no passwords; customers set theirs with send-password-setup-email');
    this.checkReferences(record.customer.personal_information);
    const id = record.customer_id ?? this.newId();
    if (this.repo.rowById(id)) throw invalidParam('customer_id', 'already_exists', id);
    this.insert(record, null, id, false);
  }

  private insert(request: CreateCustomer, passwordHash: string | null, id: string, queued: boolean): { customer_id: string } {
    const customer = { id, ...personalInformationColumns(request.customer.personal_information), password_hash: passwordHash, state: 1 };
    const source = request.customer_source;
    this.writes.write(queued ? { kind: 'customers.create', payload: { customer_id: id } } : null, (tx) => {
      this.repo.insertCustomer(tx, customer);
      if (source) {
        this.repo.insertSourceRecord(tx, { id: this.newId(), customer_id: id, customer_source_id: source.customer_source_id, external_id: source.external_id ?? null });
      }
    });
    return { customer_id: id };
  }

  update(id: string, request: UpdateCustomer, context: RequestContext): void {
    if (!this.repo.rowById(id)) throw notFound('customers', id);
    assertOwnRecord(context, id, 'customer_id', id);
    this.checkReferences(request.customer.personal_information);
    const columns = personalInformationColumns(request.customer.personal_information);
    if (Object.keys(columns).length === 0) return;
    this.writes.write({ kind: 'customers.update', payload: { customer_id: id } }, (tx) => this.repo.updateCustomer(tx, id, columns));
  }

  private checkReferences(info: PersonalInformation): void {
    if (info.store_id && !this.repo.hasStore(info.store_id)) {
      throw invalidParam('customer.personal_information.store_id', 'not_found', info.store_id);
    }
  }
}
