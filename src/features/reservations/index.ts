/**
 * Product reservations (`/product-reservations`) and their sources
 * (`/product-reservation-sources`): a reservation's state is the fold of its state changes, states
 * 0–8, a new one starting at 1 and cancel moving any to 0 (DESIGN §6).
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { ProductReservationsRepo } from './product-reservations.repo.js';
import { productReservationsRoutes } from './product-reservations.routes.js';
import { ProductReservationsService } from './product-reservations.service.js';
import { ReservationSourcesRepo } from './reservation-sources.repo.js';
import { reservationSourcesRoutes } from './reservation-sources.routes.js';
import { ReservationSourcesService } from './reservation-sources.service.js';

export const reservationsFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'timeZone'>> = ({ db, writes, newId, timeZone }) => [
  ...productReservationsRoutes(new ProductReservationsService(new ProductReservationsRepo(db), writes, newId, timeZone)),
  ...reservationSourcesRoutes(new ReservationSourcesService(new ReservationSourcesRepo(db), writes, newId, timeZone)),
];
