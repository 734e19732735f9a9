import type { z } from 'zod';
import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { PointPath } from '../points/points.schemas.js';
import {
  PaymentSummaryAnswer,
  PurchaseAnswer,
  PurchaseItemsAnswer,
  PurchasePath,
  PurchasePointsAnswer,
  PurchasesAnswer,
  PurchasesQuery,
  PurchaseVouchersAnswer,
} from './purchases.schemas.js';
import type { PurchasesService } from './purchases.service.js';

export function purchasesRoutes(purchases: PurchasesService): Endpoint[] {
  const sub = (path: string, answer: z.ZodType, handle: (id: string, context: Parameters<PurchasesService['get']>[1]) => unknown) =>
    endpoint({
      method: 'get',
      history: true,
      path: `/purchases/:purchase_id${path}`,
      interfaces: BOTH,
      params: PurchasePath,
      answer,
      handle: ({ params }, context) => handle(params.purchase_id, context),
    });
  return [
    endpoint({
      method: 'get',
      history: true,
      path: '/purchases',
      interfaces: BOTH,
      query: PurchasesQuery,
      answer: PurchasesAnswer,
      handle: ({ query }, context) => purchases.list(query, context),
    }),
    sub('', PurchaseAnswer, (id, context) => purchases.get(id, context)),
    sub('/purchase-items', PurchaseItemsAnswer, (id, context) => purchases.items(id, context)),
    sub('/points', PurchasePointsAnswer, (id, context) => purchases.pointRecords(id, context)),
    sub('/vouchers', PurchaseVouchersAnswer, (id, context) => purchases.voucherList(id, context)),
    sub('/actions/payment-summary', PaymentSummaryAnswer, (id, context) => purchases.paymentSummary(id, context)),
    endpoint({
      method: 'get',
      history: true,
      path: '/points/:point_id/purchases',
      interfaces: BOTH,
      params: PointPath,
      answer: PurchasesAnswer,
      handle: ({ params }, context) => purchases.ofPointRecord(params.point_id, context),
    }),
  ];
}
