/**
 * Product reservations (`/product-reservations`) and their sources
 * (`/product-reservation-sources`): a reservation's state is the fold of its state changes, states
 * 0–8, a new one starting at 1 and cancel moving any to 0 (DESIGN §6).
 */
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
