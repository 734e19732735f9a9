/**
 * Point records (`/points`): reads with the customer's available points from the ledger fold
 * (`src/loyalty/`), and the enterprise actions that assign, reduce and transfer points, each a fact
 * of the points ledger.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { PointPages } from './point-pages.repo.js';
import { pointsRoutes } from './points.routes.js';
import { PointsService } from './points.service.js';

export const pointsFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'clock' | 'timeZone' | 'customers' | 'ledger'>> = ({
  db,
  writes,
  clock,
  timeZone,
  customers,
  ledger,
}) =>
  pointsRoutes(
    new PointsService({
      pages: new PointPages(db),
      ledger,
      customers,
      writes,
      clock,
      timeZone,
    }),
  );
