import type { Feature } from '../feature.js';
import { ProductReservationsRepo } from './product-reservations.repo.js';
import { productReservationsRoutes } from './product-reservations.routes.js';
import { ProductReservationsService } from './product-reservations.service.js';
import { ReservationSourcesRepo } from './reservation-sources.repo.js';
import { reservationSourcesRoutes } from './reservation-sources.routes.js';
import { ReservationSourcesService } from './reservation-sources.service.js';

export const reservationsFeature: Feature = ({ node, config }) => [
  ...productReservationsRoutes(new ProductReservationsService(new ProductReservationsRepo(node.db), node.writes, node.newId, config.time_zone)),
  ...reservationSourcesRoutes(new ReservationSourcesService(new ReservationSourcesRepo(node.db), node.writes, node.newId, config.time_zone)),
];
