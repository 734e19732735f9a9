import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { StoreBody, StorePath, StoreQuery } from './stores.schemas.js';
import type { StoresService } from './stores.service.js';

/** Stores are hub master data: any client reads them, only the enterprise interface writes them. */
export function storesRoutes(stores: StoresService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/stores',
      interfaces: ENTERPRISE,
      status: 201,
      body: StoreBody,
      handle: ({ body }) => stores.create(body),
    }),
    endpoint({
      method: 'get',
      path: '/stores',
      interfaces: BOTH,
      query: StoreQuery,
      handle: ({ query }) => stores.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/stores/:store_id',
      interfaces: BOTH,
      params: StorePath,
      handle: ({ params }) => stores.get(params.store_id),
    }),
    endpoint({
      method: 'put',
      path: '/stores/:store_id',
      interfaces: ENTERPRISE,
      status: 204,
      params: StorePath,
      body: StoreBody,
      handle: ({ params, body }) => stores.update(params.store_id, body),
    }),
  ];
}
