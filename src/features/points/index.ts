import type { Feature } from '../feature.js';
import { PointPages } from './point-pages.repo.js';
import { pointsRoutes } from './points.routes.js';
import { PointsService } from './points.service.js';

export const pointsFeature: Feature = ({ node, config, clock, services }) =>
  pointsRoutes(
    new PointsService({
      pages: new PointPages(node.db),
      ledger: services.ledger,
      customers: services.customersRepo,
      writes: node.writes,
      clock,
      timeZone: config.time_zone,
    }),
  );
