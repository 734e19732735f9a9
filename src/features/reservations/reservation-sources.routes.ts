import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import { ReservationSourceAnswer, ReservationSourcePath, ReservationSourceQuery, ReservationSourcesAnswer } from './reservation-sources.schemas.js';
import type { ReservationSourcesService } from './reservation-sources.service.js';

export function reservationSourcesRoutes(sources: ReservationSourcesService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/product-reservation-sources',
      interfaces: BOTH,
      query: ReservationSourceQuery,
      answer: ReservationSourcesAnswer,
      handle: ({ query }) => sources.list(query),
    }),
    endpoint({
      method: 'get',
      path: '/product-reservation-sources/:product_reservation_source_id',
      interfaces: BOTH,
      params: ReservationSourcePath,
      answer: ReservationSourceAnswer,
      handle: ({ params }) => sources.get(params.product_reservation_source_id),
    }),
  ];
}
