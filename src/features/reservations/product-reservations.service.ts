import type { WritePath } from '../../db/write-path.js';
import { badRequest, invalidParam, notFound, type InvalidParam } from '../../core/errors.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { IdGenerator } from '../../core/ids.js';
import { toProductReservation, toReservationDetails } from './product-reservations.mappers.js';
import type { ProductReservationsRepo, ProductReservationRow } from './product-reservations.repo.js';
import {
  CANCELED,
  ENTERED,
  type CancelReservation,
  type NewProductReservation,
  type ProductReservationQuery,
} from './product-reservations.schemas.js';
import { foldReservationStates } from './reservation-states.js';

const RESOURCE = 'product-reservations';

export class ProductReservationsService {
  constructor(
    private readonly repo: ProductReservationsRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  create(request: NewProductReservation, context: RequestContext): { product_reservation_id: string } {
    assertOwnRecord(context, request.customer_id, 'product_reservation.customer_id', request.customer_id);
    this.assertReferencesExist(request);
    const id = this.newId();
    const reservation = {
      id,
      customer_id: request.customer_id,
      store_id: request.store_id,
      product_reservation_source_id: request.product_reservation_source_id,
      pickup_date: request.pickup_date ?? null,
      currency_id: request.currency_id ?? null,
      total_price_minor: request.total_price ?? null,
      actual_state: ENTERED,
      details: JSON.stringify(toReservationDetails(request)),
    };
    const codes = [...new Set(request.reservation_codes ?? [])].map((code) => ({
      id: this.newId(),
      product_reservation_id: id,
      code,
    }));
    const entered = { id: this.newId(), product_reservation_id: id, reservation_state: ENTERED };
    const command = {
      kind: 'product_reservations.create',
      payload: { product_reservation: reservation, reservation_codes: codes, reservation_state_change: entered },
    };
    this.writes.write(command, (tx) => {
      this.repo.insertReservation(tx, reservation);
      for (const code of codes) this.repo.insertCode(tx, code);
      this.repo.insertStateChange(tx, entered);
    });
    return { product_reservation_id: id };
  }

  /** Cancel moves any reservation to Canceled; a cancelled one stays as it is. */
  cancel(pathId: string, request: CancelReservation, context: RequestContext): void {
    const reservation = this.ownReservation(pathId, context);
    if (request.product_reservation_id !== pathId) {
      throw invalidParam(
        'product_reservation_id',
        'not_allowed_value',
        request.product_reservation_id,
        'Must equal the product_reservation_id of the path',
      );
    }
    if (foldReservationStates(this.repo.stateChangesOf(reservation.id)).actual_state === CANCELED) return;
    const canceled = { id: this.newId(), product_reservation_id: reservation.id, reservation_state: CANCELED };
    this.writes.write({ kind: 'product_reservations.cancel', payload: { reservation_state_change: canceled } }, (tx) => {
      this.repo.insertStateChange(tx, canceled);
      const { actual_state } = foldReservationStates(this.repo.stateChangesOf(reservation.id));
      this.repo.setActualState(tx, reservation.id, actual_state);
    });
  }

  list(query: ProductReservationQuery, context: RequestContext) {
    const page = this.repo.page({ ...query, customer_id: customerFilter(context, query.customer_id) }, query);
    return { product_reservations: page.items.map((row) => this.toWire(row)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    return this.toWire(this.ownReservation(id, context));
  }

  private ownReservation(id: string, context: RequestContext): ProductReservationRow {
    const row = this.repo.reservationById(id);
    if (!row) throw notFound(RESOURCE, id);
    assertOwnRecord(context, row.customer_id, 'product_reservation_id', id);
    return row;
  }

  private assertReferencesExist(request: NewProductReservation): void {
    const missing: InvalidParam[] = [];
    if (!this.repo.customerExists(request.customer_id)) {
      missing.push({ name: 'product_reservation.customer_id', reason: 'not_found', value: request.customer_id });
    }
    if (!this.repo.storeExists(request.store_id)) {
      missing.push({ name: 'product_reservation.store_id', reason: 'not_found', value: request.store_id });
    }
    if (!this.repo.sourceExists(request.product_reservation_source_id)) {
      missing.push({
        name: 'product_reservation.product_reservation_source_id',
        reason: 'not_found',
        value: request.product_reservation_source_id,
      });
    }
    if (missing.length) throw badRequest(missing);
  }

  private toWire(row: ProductReservationRow) {
    return toProductReservation(row, this.repo.reservationCodes(row.id), this.repo.stateChangesOf(row.id), this.timeZone);
  }
}
