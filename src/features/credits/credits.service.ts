/**
 * Credit records (DESIGN §6; today's spec's credit resource): reads with `available_credits`
 * from the customer's balance, and the enterprise actions — deposit adds a collection record,
 * reduce a redemption record (never beyond the balance, and under the offline limits of any
 * credit spend), transfer one of each, linked to each other, in one transaction. Every one
 * is a fact of the one ledger (src/loyalty/ledger-records.ts), so the balance checkout reads,
 * the wallet's overview and the fold conflicts see it at once.
 */
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import { creditLeftOn } from '../../loyalty/credit-left.js';
import type { Ledger } from '../../loyalty/ledger.js';
import type { CreditOrigin, CreditRecord } from '../../loyalty/ledger-records.js';
import type { ProgramRepo } from '../../loyalty/program.repo.js';
import type { FoldConflicts } from '../../sync/fold-conflicts.js';
import { parseTimestamp } from '../../core/time.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { CreditPages, CreditRecordRow } from './credit-pages.repo.js';
import { toCredit } from './credits.mappers.js';
import type { CreditAnswer, CreditCreated, CreditsAnswer, CreditsQuery, DepositCredits, ReduceCredits, TransferCredits } from './credits.schemas.js';

/** What CreditsService is built from. */
export interface CreditsServiceOptions {
  pages: CreditPages;
  ledger: Ledger;
  customers: CustomersRepo;
  program: ProgramRepo;
  conflicts: FoldConflicts;
  writes: WritePath;
  clock: Clock;
  timeZone: string;
}

export class CreditsService {
  private readonly pages: CreditPages;
  private readonly ledger: Ledger;
  private readonly customers: CustomersRepo;
  private readonly program: ProgramRepo;
  private readonly conflicts: FoldConflicts;
  private readonly writes: WritePath;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: CreditsServiceOptions) {
    const { pages, ledger, customers, program, conflicts, writes, clock, timeZone } = options;
    this.pages = pages;
    this.ledger = ledger;
    this.customers = customers;
    this.program = program;
    this.conflicts = conflicts;
    this.writes = writes;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  list(query: CreditsQuery, context: RequestContext): CreditsAnswer {
    const page = this.pages.page(
      {
        customer_id: customerFilter(context, query.customer_id),
        credit_type_id: query.credit_type_id,
        created_from: this.instant(query.create_credit_time_from, 'create_credit_time_from'),
        created_to: this.instant(query.create_credit_time_to, 'create_credit_time_to'),
        note: query.note,
      },
      query,
    );
    const left = new Map<string, Map<string, number>>();
    const credits = page.items.map((row) => {
      let ofCustomer = left.get(row.customer_id);
      if (!ofCustomer) left.set(row.customer_id, (ofCustomer = this.leftOf(row.customer_id)));
      return this.wire(row, ofCustomer);
    });
    return { credits, total_items: page.total };
  }

  get(id: string, context: RequestContext): CreditAnswer {
    const row = this.pages.byId(id);
    if (!row) throw notFound('credits', id);
    assertOwnRecord(context, row.customer_id, 'credit_id', id);
    return this.wire(row, this.leftOf(row.customer_id));
  }

  deposit(request: DepositCredits): CreditCreated {
    this.requireCustomer(request.customer_id, 'customer_id');
    const record = this.ledger.records.deposit(request.customer_id, request.amount, this.origin(request, 'manual'));
    this.write('credits.deposit', request, [record]);
    return { credit_id: record.id };
  }

  reduce(request: ReduceCredits): CreditCreated {
    this.requireCustomer(request.customer_id, 'customer_id');
    this.ledger.policy.checkCredit(request.amount, this.balance(request.customer_id), 'amount');
    const record = this.ledger.records.withdraw(request.customer_id, request.amount, this.origin(request, 'manual'));
    this.write('credits.reduce', request, [record]);
    return { credit_id: record.id };
  }

  transfer(request: TransferCredits): void {
    this.requireCustomer(request.original_customer_id, 'original_customer_id');
    this.requireCustomer(request.new_customer_id, 'new_customer_id');
    if (request.original_customer_id === request.new_customer_id) {
      throw invalidParam('new_customer_id', 'not_allowed_value', request.new_customer_id, 'Credit is transferred to another customer');
    }
    this.ledger.policy.checkCredit(request.amount, this.balance(request.original_customer_id), 'amount');
    const records = this.ledger.records.transferCredit(
      request.original_customer_id,
      request.new_customer_id,
      request.amount,
      this.origin(request, 'transfer'),
    );
    this.write('credits.transfer', request, records);
  }

  private write(kind: string, payload: unknown, records: CreditRecord[]): void {
    this.writes.write({ kind, payload }, (tx) => {
      for (const record of records) this.ledger.credits.insert(tx, record);
    });
    this.conflicts.checkCreditCustomers(new Set(records.map((record) => record.customer_id)));
  }

  private origin(
    request: { partner_id?: string | undefined; credit_type_id?: string | undefined; currency_id?: string | undefined; note?: string | undefined },
    type: string,
  ): CreditOrigin {
    const currency = this.program.load()?.currency_id;
    if (request.currency_id !== undefined && currency !== undefined && request.currency_id !== currency) {
      throw invalidParam('currency_id', 'not_allowed_value', request.currency_id, `Credit is kept in ${currency}`);
    }
    return { credit_type_id: request.credit_type_id ?? type, partner_id: request.partner_id ?? null, note: request.note ?? null };
  }

  private balance(customerId: string): number {
    return this.ledger.balances.balancesAt(customerId, this.clock()).creditMinor;
  }

  private leftOf(customerId: string): Map<string, number> {
    return creditLeftOn(this.balance(customerId), this.pages.collectionsNewestFirst(customerId));
  }

  private wire(row: CreditRecordRow, left: Map<string, number>) {
    return toCredit(row, row.kind === 'collection' && row.state === 1 ? (left.get(row.id) ?? 0) : 0, this.program.load()?.currency_id ?? '');
  }

  private requireCustomer(id: string, field: string): void {
    if (!this.customers.credentialsById(id)) throw invalidParam(field, 'not_found', id);
  }

  private instant(text: string | undefined, field: string): string | undefined {
    if (text === undefined) return undefined;
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(field, 'invalid_value_format', text, 'Expected YYYY-MM-DD HH:MM:SS or ISO 8601');
    return new Date(ms).toISOString();
  }
}
