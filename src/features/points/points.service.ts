/**
 * Point records (DESIGN §5–§6): reads with `available_points` from the ledger fold, and the
 * enterprise actions — assign adds a collection record, reduce a redemption record (never
 * beyond the balance), transfer one of each, linked to each other, in one transaction.
 */
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { Ledger } from '../../loyalty/ledger.js';
import { parseTimestamp } from '../../core/time.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { PointPages } from './point-pages.repo.js';
import { toPoint } from './points.mappers.js';
import type { AssignPoints, PointsQuery, ReducePoints, TransferPoints } from './points.schemas.js';

/** What PointsService is built from. */
export interface PointsServiceOptions {
  pages: PointPages;
  ledger: Ledger;
  customers: CustomersRepo;
  writes: WritePath;
  clock: Clock;
  timeZone: string;
}

export class PointsService {
  private readonly pages: PointPages;
  private readonly ledger: Ledger;
  private readonly customers: CustomersRepo;
  private readonly writes: WritePath;
  private readonly clock: Clock;
  private readonly timeZone: string;

  constructor(options: PointsServiceOptions) {
    const { pages, ledger, customers, writes, clock, timeZone } = options;
    this.pages = pages;
    this.ledger = ledger;
    this.customers = customers;
    this.writes = writes;
    this.clock = clock;
    this.timeZone = timeZone;
  }

  list(query: PointsQuery, context: RequestContext) {
    const page = this.pages.page(
      {
        customer_id: customerFilter(context, query.customer_id),
        point_type_id: query.point_type_id,
        created_from: this.instant(query.create_point_time_from, 'create_point_time_from'),
        created_to: this.instant(query.create_point_time_to, 'create_point_time_to'),
      },
      query,
    );
    const left = this.ledger.balances.pointsLeftMilliOn(page.items, this.clock());
    const points = page.items.map((row, index) => toPoint(row, left[index]!, this.timeZone));
    return { points, total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.ledger.points.byId(id);
    if (!row) throw notFound('points', id);
    assertOwnRecord(context, row.customer_id, 'point_id', id);
    return toPoint(row, this.ledger.balances.standingByRecord(row.customer_id, this.clock()).pointsLeftMilli(row), this.timeZone);
  }

  assign(request: AssignPoints): void {
    this.requireCustomer(request.customer_id, 'customer_id');
    const record = this.ledger.records.collect(request.customer_id, request.amount, {
      partner_id: request.partner_id ?? null,
      point_type_id: 'manual',
    });
    this.writes.write({ kind: 'points.assign', payload: request }, (tx) => this.ledger.points.insert(tx, record));
  }

  reduce(request: ReducePoints): void {
    this.requireCustomer(request.customer_id, 'customer_id');
    this.ledger.policy.check(request.customer_id, request.amount, this.ledger.balances.balancesAt(request.customer_id, this.clock()).pointsMilli);
    const record = this.ledger.records.redeem(request.customer_id, request.amount, {
      partner_id: request.partner_id ?? null,
      point_type_id: 'manual',
    });
    this.writes.write({ kind: 'points.reduce', payload: request }, (tx) => this.ledger.points.insert(tx, record));
  }

  transfer(request: TransferPoints): void {
    this.requireCustomer(request.original_customer_id, 'original_customer_id');
    this.requireCustomer(request.new_customer_id, 'new_customer_id');
    if (request.original_customer_id === request.new_customer_id) {
      throw invalidParam('new_customer_id', 'not_allowed_value', request.new_customer_id, 'Points are transferred to another customer');
    }
    this.ledger.policy.check(
      request.original_customer_id,
      request.amount,
      this.ledger.balances.balancesAt(request.original_customer_id, this.clock()).pointsMilli,
    );
    const records = this.ledger.records.transfer(
      request.original_customer_id,
      request.new_customer_id,
      request.amount,
      request.point_type_id ?? 'transfer',
    );
    this.writes.write({ kind: 'points.transfer', payload: request }, (tx) => {
      for (const record of records) this.ledger.points.insert(tx, record);
    });
  }

  private requireCustomer(id: string, field: string): void {
    if (!this.customers.credentialsById(id)) throw invalidParam(field, 'not_found', id);
  }

  private instant(text: string | undefined, field: string): string | undefined {
    if (text === undefined) return undefined;
    const ms = parseTimestamp(text, this.timeZone);
    if (ms === undefined) throw invalidParam(field, 'invalid_value_format', text);
    return new Date(ms).toISOString();
  }
}
