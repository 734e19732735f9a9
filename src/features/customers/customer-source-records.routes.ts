import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import {
  CreateCustomerSourceRecord,
  CustomerSourceRecordCreated,
  CustomerSourceRecordPath,
  CustomerSourceRecordsAnswer,
  CustomerSourceRecordsOfCustomerQuery,
  CustomerSourceRecordsQuery,
} from './customer-source-records.schemas.js';
import type { CustomerSourceRecordsService } from './customer-source-records.service.js';

export function customerSourceRecordsRoutes(records: CustomerSourceRecordsService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/customer-source-records',
      interfaces: BOTH,
      query: CustomerSourceRecordsQuery,
      answer: CustomerSourceRecordsAnswer,
      handle: ({ query }, context) => records.list(query, context),
    }),
    endpoint({
      method: 'get',
      path: '/customers/:customer_id/customer-source-records',
      interfaces: BOTH,
      params: CustomerSourceRecordPath,
      query: CustomerSourceRecordsOfCustomerQuery,
      answer: CustomerSourceRecordsAnswer,
      handle: ({ params, query }, context) => records.listOfCustomer(params.customer_id, query, context),
    }),
    endpoint({
      method: 'post',
      path: '/customers/:customer_id/customer-source-records',
      interfaces: BOTH,
      status: 201,
      params: CustomerSourceRecordPath,
      body: CreateCustomerSourceRecord,
      answer: CustomerSourceRecordCreated,
      handle: ({ params, body }, context) => records.create(params.customer_id, body, context),
      offline: {
        kind: 'customer-source-records.create',
        makes: 'customer_source_records',
        run: ({ params, body }, context) => void records.create(params.customer_id, body, context),
      },
    }),
  ];
}
