import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { ProductBrandAnswer, ProductBrandPath, ProductBrandQuery, ProductBrandsAnswer } from './product-brands.schemas.js';
import type { ProductBrandsService } from './product-brands.service.js';

export function productBrandsRoutes(brands: ProductBrandsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/product-brands',
      interfaces: BOTH,
      query: ProductBrandQuery,
      answer: ProductBrandsAnswer,
      handle: ({ query }) => brands.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/product-brands/:product_brand_id',
      interfaces: BOTH,
      params: ProductBrandPath,
      answer: ProductBrandAnswer,
      handle: ({ params }) => brands.get(params.product_brand_id),
    }),
  ];
}
