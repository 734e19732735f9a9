import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import { StoreAnswer, StoreBody, StoreCreated, StorePath, StoreQuery, StoresAnswer } from './stores.schemas.js';
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
      answer: StoreCreated,
      handle: ({ body }) => stores.create(body),
    }),
    endpoint({
      method: 'get',
      path: '/stores',
      interfaces: BOTH,
      query: StoreQuery,
      answer: StoresAnswer,
      handle: ({ query }) => stores.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/stores/:store_id',
      interfaces: BOTH,
      params: StorePath,
      answer: StoreAnswer,
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
