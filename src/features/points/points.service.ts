/**
 * Point records (DESIGN §5–§6): reads with `available_points` from the ledger fold, and the
 * enterprise actions — assign adds a collection record, reduce a redemption record (never
 * beyond the balance), transfer one of each, linked to each other, in one transaction.
 */
import type { Clock } from '../../clock.js';
import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../errors.js';
import type { RequestContext } from '../../http/endpoint.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { CustomerLedgers } from '../../loyalty/customer-ledgers.js';
import type { RedemptionPolicy } from '../../loyalty/offline-risk.js';
import type { IdGenerator } from '../../sync/ids.js';
import { parseTimestamp } from '../../time.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import { toPoint } from './points.mappers.js';
import type { PointsRepo } from './points.repo.js';
import type { AssignPoints, PointRow, PointsQuery, ReducePoints, TransferPoints } from './points.schemas.js';

export interface PointsOptions {
  timeZone: string;
  /** Days a collected point stays valid, from the loaded program; undefined for never. */
  validityDays: () => number | undefined;
}

export class PointsService {
  constructor(
    private readonly repo: PointsRepo,
    private readonly ledgers: CustomerLedgers,
    private readonly customers: CustomersRepo,
    private readonly policy: RedemptionPolicy,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly clock: Clock,
    private readonly options: PointsOptions,
  ) {}

  list(query: PointsQuery, context: RequestContext) {
    const page = this.repo.page(
      {
        customer_id: customerFilter(context, query.customer_id),
        point_type_id: query.point_type_id,
        created_from: this.instant(query.create_point_time_from, 'create_point_time_from'),
        created_to: this.instant(query.create_point_time_to, 'create_point_time_to'),
      },
      query,
    );
    const left = this.ledgers.pointsLeftOn(page.items, this.clock());
    const points = page.items.map((row, index) => toPoint(row, left[index]!, this.options.timeZone));
    return { points, total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.byId(id);
    if (!row) throw notFound('points', id);
    assertOwnRecord(context, row.customer_id, 'point_id', id);
    return toPoint(row, this.ledgers.ledger(row.customer_id, this.clock()).pointsLeft(row), this.options.timeZone);
  }

  assign(request: AssignPoints): void {
    this.requireCustomer(request.customer_id, 'customer_id');
    const row = this.collection(request.customer_id, request.amount, { partner_id: request.partner_id ?? null, point_type_id: 'manual' });
    this.writes.write({ kind: 'points.assign', payload: request }, (tx) => this.repo.insert(tx, row));
  }

  reduce(request: ReducePoints): void {
    this.requireCustomer(request.customer_id, 'customer_id');
    this.policy.check(request.customer_id, request.amount, this.ledgers.balancesAt(request.customer_id, this.clock()).pointsMilli);
    const row = this.redemption(request.customer_id, request.amount, { partner_id: request.partner_id ?? null, point_type_id: 'manual' });
    this.writes.write({ kind: 'points.reduce', payload: request }, (tx) => this.repo.insert(tx, row));
  }

  transfer(request: TransferPoints): void {
    this.requireCustomer(request.original_customer_id, 'original_customer_id');
    this.requireCustomer(request.new_customer_id, 'new_customer_id');
    if (request.original_customer_id === request.new_customer_id) {
      throw invalidParam('new_customer_id', 'not_allowed_value', request.new_customer_id, 'Points are transferred to another customer');
    }
    this.policy.check(request.original_customer_id, request.amount, this.ledgers.balancesAt(request.original_customer_id, this.clock()).pointsMilli);
    const pointType = request.point_type_id ?? 'transfer';
    const out = this.redemption(request.original_customer_id, request.amount, { point_type_id: pointType, partner_id: null });
    const into = this.collection(request.new_customer_id, request.amount, { point_type_id: pointType, partner_id: null });
    out.linked_point_id = into.id;
    into.linked_point_id = out.id;
    this.writes.write({ kind: 'points.transfer', payload: request }, (tx) => {
      this.repo.insert(tx, out);
      this.repo.insert(tx, into);
    });
  }

  private collection(customerId: string, milli: number, extra: { point_type_id: string; partner_id: string | null }) {
    const now = this.clock();
    const days = this.options.validityDays();
    return this.record(customerId, 'collection', milli, extra, days === undefined ? null : new Date(now + days * 86_400_000).toISOString());
  }

  private redemption(customerId: string, milli: number, extra: { point_type_id: string; partner_id: string | null }) {
    return this.record(customerId, 'redemption', milli, extra, null);
  }

  private record(customerId: string, kind: PointRow['kind'], milli: number, extra: { point_type_id: string; partner_id: string | null }, validTo: string | null) {
    return {
      id: this.newId(),
      customer_id: customerId,
      kind,
      points_milli: milli,
      point_type_id: extra.point_type_id,
      partner_id: extra.partner_id,
      valid_to: validTo,
      purchase_id: null,
      linked_point_id: null as string | null,
      created_at: new Date(this.clock()).toISOString(),
      state: 1,
    };
  }

  private requireCustomer(id: string, field: string): void {
    if (!this.customers.credentialsById(id)) throw invalidParam(field, 'not_found', id);
  }

  private instant(text: string | undefined, field: string): string | undefined {
    if (text === undefined) return undefined;
    const ms = parseTimestamp(text, this.options.timeZone);
    if (ms === undefined) throw invalidParam(field, 'invalid_value_format', text);
    return new Date(ms).toISOString();
  }
}
