/**
 * Orders (`/orders`): a customer's orders, recorded as facts of the node that takes them and read
 * from the hub at a store with one.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { OrdersRepo } from './orders.repo.js';
import { ordersRoutes } from './orders.routes.js';
import { OrdersService } from './orders.service.js';

export const ordersFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'timeZone'>> = ({ db, writes, newId, timeZone }) => [
  ...ordersRoutes(new OrdersService(new OrdersRepo(db), writes, newId, timeZone)),
];
