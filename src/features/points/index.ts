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
}) => pointsRoutes(new PointsService(new PointPages(db), ledger, customers, writes, clock, timeZone));
