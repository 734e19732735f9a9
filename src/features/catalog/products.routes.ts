import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { ProductAnswer, ProductDetailQuery, ProductPath, ProductQuery, ProductsAnswer } from './products.schemas.js';
import type { ProductsService } from './products.service.js';

export function productsRoutes(products: ProductsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/products',
      interfaces: BOTH,
      query: ProductQuery,
      answer: ProductsAnswer,
      handle: ({ query }) => products.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/products/:product_id',
      interfaces: BOTH,
      params: ProductPath,
      query: ProductDetailQuery,
      answer: ProductAnswer,
      handle: ({ params, query }) => products.get(params.product_id, query.external_type_code),
    }),
  ];
}
