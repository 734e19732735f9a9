import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { CardPath, CardsQuery, CreateCard } from './cards.schemas.js';
import type { CardsService } from './cards.service.js';
import { CreateCustomer, CustomerPath, CustomersQuery, UpdateCustomer } from './customers.schemas.js';
import type { CustomersService } from './customers.service.js';

export function customersRoutes(customers: CustomersService, cards: CardsService): Endpoint[] {
  return [
    endpoint({ method: 'get', path: '/customers', interfaces: BOTH, query: CustomersQuery, handle: ({ query }, context) => customers.list(query, context) }),
    endpoint({ method: 'post', path: '/customers', interfaces: BOTH, status: 201, body: CreateCustomer, handle: ({ body }) => customers.create(body) }),
    endpoint({
      method: 'get',
      path: '/customers/:customer_id',
      interfaces: BOTH,
      params: CustomerPath,
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
    }),
    endpoint({ method: 'get', path: '/cards', interfaces: BOTH, query: CardsQuery, handle: ({ query }, context) => cards.list(query, context) }),
    endpoint({ method: 'post', path: '/cards', interfaces: BOTH, status: 201, body: CreateCard, handle: ({ body }, context) => cards.create(body, context) }),
    endpoint({ method: 'get', path: '/cards/:card_id', interfaces: BOTH, params: CardPath, handle: ({ params }, context) => cards.get(params.card_id, context) }),
  ];
}
