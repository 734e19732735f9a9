import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { PointPath } from '../points/points.schemas.js';
import { PurchasePath, PurchasesQuery } from './purchases.schemas.js';
import type { PurchasesService } from './purchases.service.js';

export function purchasesRoutes(purchases: PurchasesService): Endpoint[] {
  const sub = (path: string, handle: (id: string, context: Parameters<PurchasesService['get']>[1]) => unknown) =>
    endpoint({ method: 'get', history: true, path: `/purchases/:purchase_id${path}`, interfaces: BOTH, params: PurchasePath, handle: ({ params }, context) => handle(params.purchase_id, context) });
  return [
    endpoint({ method: 'get', history: true, path: '/purchases', interfaces: BOTH, query: PurchasesQuery, handle: ({ query }, context) => purchases.list(query, context) }),
    sub('', (id, context) => purchases.get(id, context)),
    sub('/purchase-items', (id, context) => purchases.items(id, context)),
    sub('/points', (id, context) => purchases.pointRecords(id, context)),
    sub('/vouchers', (id, context) => purchases.voucherList(id, context)),
    sub('/actions/payment-summary', (id, context) => purchases.paymentSummary(id, context)),
    endpoint({
      method: 'get',
      history: true,
      path: '/points/:point_id/purchases',
      interfaces: BOTH,
      params: PointPath,
      handle: ({ params }, context) => purchases.ofPointRecord(params.point_id, context),
    }),
  ];
}
