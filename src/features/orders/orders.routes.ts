import { BOTH, CUSTOMER, endpoint, type Endpoint } from '../../http/endpoint.js';
import { CreateOrder, OrderAnswer, OrderCreated, OrderPath, OrderQuery, OrdersAnswer } from './orders.schemas.js';
import type { OrdersService } from './orders.service.js';

export function ordersRoutes(orders: OrdersService): Endpoint[] {
  return [
    endpoint({
      // interface.md lists orders under the customer interface only.
      method: 'post',
      path: '/orders',
      interfaces: CUSTOMER,
      status: 201,
      body: CreateOrder,
      answer: OrderCreated,
      handle: ({ body }, context) => orders.create(body.order, context),
      offline: { kind: 'orders.create', makes: 'orders', run: ({ body }, context) => void orders.create(body.order, context) },
    }),
    endpoint({
      // The reads come from the current OpenAPI file, which limits them to no interface.
      method: 'get',
      history: true,
      path: '/orders',
      interfaces: BOTH,
      query: OrderQuery,
      answer: OrdersAnswer,
      handle: ({ query }, context) => orders.list(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/orders/:order_id',
      interfaces: BOTH,
      params: OrderPath,
      answer: OrderAnswer,
      handle: ({ params }, context) => orders.get(params.order_id, context),
    }),
  ];
}
