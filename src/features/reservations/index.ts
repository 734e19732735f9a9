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
