import { BOTH, carriesPassword, endpoint, type Endpoint } from '../../http/endpoint.js';
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
export function customersRoutes(customers: CustomersService, sessions: { adoptChainSession(tokenId: string, customerId: string): void }): Endpoint[] {
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
      // A registration with a password is the hub's; with autologin, the session it made is this store's caller's.
      atHub: carriesPassword,
      afterHub: (answer, principal, body) => {
        const customerId = (answer.body as { data?: { customer_id?: unknown } } | undefined)?.data?.customer_id;
        const autologin = (body as { autologin?: unknown } | undefined)?.autologin === true;
        if (autologin && principal.kind === 'token' && typeof customerId === 'string') sessions.adoptChainSession(principal.tokenId, customerId);
      },
      // A till registers a customer without a password, offline too; the hub mails the password-setup link.
      offline: { kind: 'customers.create', makes: 'customers', run: ({ body }) => void customers.register(body) },
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
      // A change of password is the hub's; a store's other changes the hub runs again, never with a password.
      atHub: carriesPassword,
      offline: {
        kind: 'customers.update',
        makes: 'customers',
        run: ({ params, body }, context) => customers.updateWith(params.customer_id, body, context, undefined),
      },
    }),
  ];
}
