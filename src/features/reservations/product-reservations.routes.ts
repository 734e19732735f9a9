import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import {
  CancelReservation,
  CreateProductReservation,
  ProductReservationAnswer,
  ProductReservationCreated,
  ProductReservationPath,
  ProductReservationQuery,
  ProductReservationsAnswer,
} from './product-reservations.schemas.js';
import type { ProductReservationsService } from './product-reservations.service.js';

export function productReservationsRoutes(reservations: ProductReservationsService): Endpoint[] {
  return [
    endpoint({
      method: 'post',
      path: '/product-reservations',
      interfaces: BOTH,
      status: 201,
      body: CreateProductReservation,
      answer: ProductReservationCreated,
      handle: ({ body }, context) => reservations.create(body.product_reservation, context),
      offline: {
        kind: 'product_reservations.create',
        makes: 'product_reservations',
        run: ({ body }, context) => void reservations.create(body.product_reservation, context),
      },
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/product-reservations',
      interfaces: BOTH,
      query: ProductReservationQuery,
      answer: ProductReservationsAnswer,
      handle: ({ query }, context) => reservations.list(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/product-reservations/:product_reservation_id',
      interfaces: BOTH,
      params: ProductReservationPath,
      answer: ProductReservationAnswer,
      handle: ({ params }, context) => reservations.get(params.product_reservation_id, context),
    }),
    endpoint({
      method: 'post',
      path: '/product-reservations/:product_reservation_id/actions/cancel-reservation',
      interfaces: BOTH,
      status: 204,
      params: ProductReservationPath,
      body: CancelReservation,
      handle: ({ params, body }, context) => reservations.cancel(params.product_reservation_id, body, context),
      offline: {
        kind: 'product_reservations.cancel',
        makes: 'reservation_state_changes',
        run: ({ params, body }, context) => reservations.cancel(params.product_reservation_id, body, context),
      },
    }),
  ];
}
