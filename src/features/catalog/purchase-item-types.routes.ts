import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { PurchaseItemTypeQuery, PurchaseItemTypesAnswer } from './purchase-item-types.schemas.js';
import type { PurchaseItemTypesService } from './purchase-item-types.service.js';

export function purchaseItemTypesRoutes(types: PurchaseItemTypesService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/purchase-item-types',
      interfaces: BOTH,
      query: PurchaseItemTypeQuery,
      answer: PurchaseItemTypesAnswer,
      handle: ({ query }) => types.list(query),
    }),
  ];
}
