import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import {
  CreateCustomer,
  CustomerAnswer,
  CustomerCreated,
  CustomerPath,
  CustomersAnswer,
  CustomersQuery,
  UpdateCustomer,
} from './customers.schemas.js';
import type { CustomersService } from './customers.service.js';

/** The OpenAPI file offers customers in both interfaces; the customer one is scoped to the logged-in customer. */
export function customersRoutes(customers: CustomersService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/customers',
      interfaces: BOTH,
      query: CustomersQuery,
      answer: CustomersAnswer,
      handle: ({ query }, context) => customers.list(query, context),
    }),
    endpoint({
      method: 'post',
      path: '/customers',
      interfaces: BOTH,
      status: 201,
      body: CreateCustomer,
      answer: CustomerCreated,
      handle: ({ body }, context) => customers.create(body, context),
    }),
    endpoint({
      method: 'get',
      path: '/customers/:customer_id',
      interfaces: BOTH,
      params: CustomerPath,
      answer: CustomerAnswer,
      handle: ({ params }, context) => customers.get(params.customer_id, context),
    }),
    endpoint({
      method: 'put',
      path: '/customers/:customer_id',
      interfaces: BOTH,
      status: 204,
      params: CustomerPath,
      body: UpdateCustomer,
      handle: ({ params, body }, context) => customers.update(params.customer_id, body, context),
      // A store's update never carries a password (refused there): the hub takes none from it.
      offline: {
        kind: 'customers.update',
        makes: 'customers',
        run: ({ params, body }, context) => customers.updateWith(params.customer_id, body, context, undefined),
      },
    }),
  ];
}
