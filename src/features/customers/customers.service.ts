/**
 * Customers: reads for the POS and apps, and the writes head office needs to load and
 * change master data. In the customer interface a logged-in customer sees and changes only
 * itself; an app with a token and no customer yet may register one.
 */
import { hashPassword } from '../../auth/passwords.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import { CommandRejected } from '../../sync/hub/command-policy.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { IdGenerator } from '../../core/ids.js';
import { personalInformationColumns, toCustomer } from './customers.mappers.js';
import type { CustomersRepo } from './customers.repo.js';
import type {
  CreateCustomer,
  CustomerCreated,
  CustomersAnswer,
  CustomersQuery,
  ImportedCustomer,
  PersonalInformation,
  UpdateCustomer,
} from './customers.schemas.js';

const PERSONAL_INFORMATION = 'customer.personal_information';

/** What CustomersService is built from. */
export interface CustomersServiceOptions {
  repo: CustomersRepo;
  writes: WritePath;
  newId: IdGenerator;
  timeZone: string;
  /** At a store with a hub: a password is changed at head office, so none ever sits in the outbox. */
}

export class CustomersService {
  private readonly repo: CustomersRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;
  private readonly timeZone: string;

  constructor(options: CustomersServiceOptions) {
    const { repo, writes, newId, timeZone } = options;
    this.repo = repo;
    this.writes = writes;
    this.newId = newId;
    this.timeZone = timeZone;
  }

  list(query: CustomersQuery, context: RequestContext): CustomersAnswer {
    const { email_list: emails, customer_ids: ids, ...filters } = query;
    const page = this.repo.page({ ...filters, emails, ids, id: customerFilter(context, undefined) }, query);
    return { customers: page.items.map((row) => toCustomer(row, this.timeZone)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.rowById(id);
    if (!row) throw notFound('customers', id);
    assertOwnRecord(context, row.id, 'customer_id', id);
    return toCustomer(row, this.timeZone);
  }

  /**
   * With `autologin` a password is required; in the customer interface the calling token
   * then becomes the new customer's session, in the enterprise interface (which has no
   * customer sessions) the password is only checked.
   */
  async create(request: CreateCustomer, context: RequestContext): Promise<CustomerCreated> {
    if (request.autologin && request.password === undefined) throw invalidParam('password', 'required', undefined, 'autologin needs a password');
    this.checkPersonalInformation(request.customer.personal_information, undefined);
    const passwordHash = request.password === undefined ? null : await hashPassword(request.password);
    const session = request.autologin && context.principal.kind === 'token' ? context.principal.tokenId : undefined;
    return this.insert(request, { id: this.newId(), passwordHash, session, queued: true });
  }

  /**
   * A store's registration as the hub runs it again (src/sync/hub/operation-kinds.ts): without a
   * password, which a store never sends (it asks its hub to register a customer with one). A
   * registration is a fact of its store: one whose e-mail another customer has (two stores
   * offline) is kept, and the hub lists it for an operator (src/sync/hub/duplicate-registrations.ts).
   */
  register(request: CreateCustomer): CustomerCreated {
    if (request.password !== undefined || request.autologin) throw new CommandRejected("a store's registration carries no password");
    this.checkStore(request.customer.personal_information);
    return this.insert(request, { id: this.newId(), passwordHash: null, session: undefined, queued: true });
  }

  /**
   * One customer of an import file (`loyaltyd import customers`): the API's structure with
   * the id it has in the source system, loaded as master data, not queued as a command.
   */
  importRecord(record: ImportedCustomer): void {
    if (record.password !== undefined)
      throw invalidParam(
        'password',
        'not_allowed_value',
        undefined,
        'Imports carry no passwords; customers set theirs with send-password-setup-email',
      );
    const id = record.customer_id ?? this.newId();
    if (this.repo.rowById(id)) throw invalidParam('customer_id', 'already_exists', id);
    this.checkPersonalInformation(record.customer.personal_information, undefined);
    this.insert(record, { id, passwordHash: null, session: undefined, queued: false });
  }

  async update(id: string, request: UpdateCustomer, context: RequestContext): Promise<void> {
    this.updateWith(id, request, context, request.password === undefined ? undefined : await hashPassword(request.password));
  }

  /**
   * The update, its password already hashed: the call the hub runs again for a store
   * (src/sync/hub/operation-kinds.ts), which never carries a password.
   */
  updateWith(id: string, request: UpdateCustomer, context: RequestContext, passwordHash: string | undefined): void {
    if (!this.repo.rowById(id)) throw notFound('customers', id);
    assertOwnRecord(context, id, 'customer_id', id);
    const info = request.customer.personal_information;
    // OpenAPI: the registration store of a customer can be changed but not removed.
    if (info.store_id === null)
      throw invalidParam(`${PERSONAL_INFORMATION}.store_id`, 'not_allowed_value', null, 'The store of registration cannot be removed');
    this.checkPersonalInformation(info, id);
    const columns = personalInformationColumns(info);
    if (passwordHash !== undefined) columns.password_hash = passwordHash;
    if (Object.keys(columns).length === 0) return;
    this.writes.write({ kind: 'customers.update', payload: { customer_id: id } }, (tx) => this.repo.updateCustomer(tx, id, columns));
  }

  private insert(
    request: Pick<CreateCustomer, 'customer' | 'customer_source'>,
    options: { id: string; passwordHash: string | null; session: string | undefined; queued: boolean },
  ): { customer_id: string } {
    const { id, session } = options;
    const customer = { id, ...personalInformationColumns(request.customer.personal_information), password_hash: options.passwordHash, state: 1 };
    const source = request.customer_source;
    this.writes.write(options.queued ? { kind: 'customers.create', payload: { customer_id: id } } : null, (tx) => {
      this.repo.insertCustomer(tx, customer);
      if (source) {
        this.repo.insertSourceRecord(tx, {
          id: this.newId(),
          customer_id: id,
          customer_source_id: source.customer_source_id,
          external_id: source.external_id ?? null,
        });
      }
      if (session) this.repo.startSession(tx, session, id);
    });
    return { customer_id: id };
  }

  /** References must exist, and an e-mail address names one customer, since customers log in with it. */
  private checkPersonalInformation(info: PersonalInformation, customerId: string | undefined): void {
    this.checkStore(info);
    if (info.email && this.repo.idsByEmail(info.email).some((holder) => holder !== customerId)) {
      throw invalidParam(`${PERSONAL_INFORMATION}.email`, 'already_exists', info.email);
    }
  }

  private checkStore(info: PersonalInformation): void {
    if (info.store_id && !this.repo.hasStore(info.store_id)) {
      throw invalidParam(`${PERSONAL_INFORMATION}.store_id`, 'not_found', info.store_id);
    }
  }
}
