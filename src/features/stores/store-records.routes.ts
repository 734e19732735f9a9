import { BOTH, endpoint, ENTERPRISE, type Endpoint } from '../../http/endpoint.js';
import {
  CreatePropertyRecord,
  PropertyRecordCreated,
  PropertyRecordPath,
  PropertyRecordQuery,
  PropertyRecordsAnswer,
  StoreGroupRecordQuery,
  StoreGroupRecordsAnswer,
  UpdatePropertyRecord,
} from './store-records.schemas.js';
import type { StoreRecordsService } from './store-records.service.js';
import { StorePath } from './stores.schemas.js';

export function storeRecordsRoutes(records: StoreRecordsService): Endpoint[] {
  // interface.md writes the create path with `store` in the singular; the OpenAPI files with `stores`.
  const creates = ['/store/:store_id/property-records', '/stores/:store_id/property-records'].map((path) =>
    endpoint({
      method: 'post',
      path,
      interfaces: ENTERPRISE,
      status: 201,
      params: StorePath,
      body: CreatePropertyRecord,
      answer: PropertyRecordCreated,
      handle: ({ params, body }) => records.createPropertyRecord(params.store_id, body),
    }),
  );
  return [
    ...creates,
    endpoint({
      method: 'get',
      path: '/stores/:store_id/property-records',
      interfaces: BOTH,
      params: StorePath,
      query: PropertyRecordQuery,
      answer: PropertyRecordsAnswer,
      handle: ({ params, query }) => records.propertyRecords(params.store_id, query),
    }),
    endpoint({
      method: 'put',
      path: '/stores/:store_id/property-records/:property_record_id',
      interfaces: ENTERPRISE,
      status: 204,
      params: PropertyRecordPath,
      body: UpdatePropertyRecord,
      handle: ({ params, body }) => records.updatePropertyRecord(params.store_id, params.property_record_id, body),
    }),
    endpoint({
      method: 'delete',
      path: '/stores/:store_id/property-records/:property_record_id',
      interfaces: ENTERPRISE,
      status: 204,
      params: PropertyRecordPath,
      handle: ({ params }) => records.deletePropertyRecord(params.store_id, params.property_record_id),
    }),
    endpoint({
      method: 'get',
      path: '/stores/:store_id/store-group-records',
      interfaces: BOTH,
      params: StorePath,
      query: StoreGroupRecordQuery,
      answer: StoreGroupRecordsAnswer,
      handle: ({ params, query }) => records.groupRecords(params.store_id, query),
    }),
  ];
}
