import type { WritePath } from '../../db/write-path.js';
import { badRequest, notFound, type InvalidParam } from '../../core/errors.js';
import { assertOwnRecord, customerFilter } from '../../http/customer-scope.js';
import type { RequestContext } from '../../http/endpoint.js';
import type { IdGenerator } from '../../core/ids.js';
import { parseTimestamp } from '../../core/time.js';
import { toOrder } from './orders.mappers.js';
import type { OrdersRepo } from './orders.repo.js';
import type { NewOrder, OrderDetails, OrderQuery } from './orders.schemas.js';

export class OrdersService {
  constructor(
    private readonly repo: OrdersRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  create(request: NewOrder, context: RequestContext): { order_id: string } {
    assertOwnRecord(context, request.customer_id, 'order.customer_id', request.customer_id);
    request.order_items.forEach((item, index) => {
      if (item.customer_id === undefined) return;
      assertOwnRecord(context, item.customer_id, `order.order_items.${index}.customer_id`, item.customer_id);
    });
    const paidAt = this.paidAt(request);
    this.assertReferencesExist(request);
    const id = this.newId();
    const details: OrderDetails = {
      discount_codes: request.discount_codes ?? null,
      order_items: request.order_items.map((item) => ({
        order_item_id: this.newId(),
        product_variant_id: item.product_variant_id,
        customer_id: item.customer_id ?? request.customer_id,
        amount: item.amount,
        unit_price_minor: item.unit_price,
        vat_rate: item.vat_rate,
      })),
      invoicing_data: {
        payment_id: request.invoicing_data.payment_id,
        paid_at: paidAt,
        personal_information: request.invoicing_data.personal_information ?? null,
      },
      shipping_data: request.shipping_data ?? null,
      customer_note: request.customer_note ?? null,
    };
    const order = {
      id,
      // The OpenAPI file: without an external order number the internal one is used.
      order_number: request.order_number ?? id,
      customer_id: request.customer_id,
      currency_id: request.currency_id,
      total_price_minor: request.total_price,
      details: JSON.stringify(details),
    };
    this.writes.write({ kind: 'orders.create', payload: { order } }, (tx) => this.repo.insertOrder(tx, order));
    return { order_id: id };
  }

  list(query: OrderQuery, context: RequestContext) {
    const page = this.repo.page({ customer_id: customerFilter(context, query.customer_id), state: query.state }, query);
    return { orders: page.items.map((row) => toOrder(row, this.timeZone)), total_items: page.total };
  }

  get(id: string, context: RequestContext) {
    const row = this.repo.orderById(id);
    if (!row) throw notFound('orders', id);
    assertOwnRecord(context, row.customer_id, 'order_id', id);
    return toOrder(row, this.timeZone);
  }

  private paidAt(request: NewOrder): string | null {
    const paidDate = request.invoicing_data.paid_date;
    if (paidDate === undefined) return null;
    const ms = parseTimestamp(paidDate, this.timeZone);
    if (ms === undefined) {
      throw badRequest([{ name: 'order.invoicing_data.paid_date', reason: 'invalid_value_format', value: paidDate }]);
    }
    return new Date(ms).toISOString();
  }

  private assertReferencesExist(request: NewOrder): void {
    const missing: InvalidParam[] = [];
    const customer = (name: string, id: string) => {
      if (!this.repo.customerExists(id)) missing.push({ name, reason: 'not_found', value: id });
    };
    customer('order.customer_id', request.customer_id);
    request.order_items.forEach((item, index) => {
      if (item.customer_id !== undefined && item.customer_id !== request.customer_id) {
        customer(`order.order_items.${index}.customer_id`, item.customer_id);
      }
    });
    const storeId = request.invoicing_data.personal_information?.store_id;
    if (storeId !== undefined && !this.repo.storeExists(storeId)) {
      missing.push({ name: 'order.invoicing_data.personal_information.store_id', reason: 'not_found', value: storeId });
    }
    if (missing.length) throw badRequest(missing);
  }
}
