/**
 * Point records (`/points`): reads with the customer's available points from the ledger fold
 * (`src/loyalty/`), and the enterprise actions that assign, reduce and transfer points, each a fact
 * of the points ledger.
 */
import type { Feature } from '../feature.js';
import { PointPages } from './point-pages.repo.js';
import { pointsRoutes } from './points.routes.js';
import { PointsService } from './points.service.js';

export const pointsFeature: Feature = ({ node, config, clock, services }) =>
  pointsRoutes(new PointsService(new PointPages(node.db), services.ledger, services.customersRepo, node.writes, clock, config.time_zone));
