import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { Paging } from '../../core/paging.js';
import { PurchaseItemTypesAnswer } from './purchase-item-types.schemas.js';
import type { PurchaseItemTypesService } from './purchase-item-types.service.js';

export function purchaseItemTypesRoutes(types: PurchaseItemTypesService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/purchase-item-types',
      interfaces: BOTH,
      query: Paging,
      answer: PurchaseItemTypesAnswer,
      handle: ({ query }) => types.list(query),
    }),
  ];
}
