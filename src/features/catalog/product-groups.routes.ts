import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { ProductGroupAnswer, ProductGroupPath, ProductGroupQuery, ProductGroupsAnswer } from './product-groups.schemas.js';
import type { ProductGroupsService } from './product-groups.service.js';

export function productGroupsRoutes(groups: ProductGroupsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/product-groups',
      interfaces: BOTH,
      query: ProductGroupQuery,
      answer: ProductGroupsAnswer,
      handle: ({ query }) => groups.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/product-groups/:product_group_id',
      interfaces: BOTH,
      params: ProductGroupPath,
      answer: ProductGroupAnswer,
      handle: ({ params }) => groups.get(params.product_group_id),
    }),
  ];
}
