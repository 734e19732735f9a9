import type { Feature } from '../feature.js';
import { PointsRepo } from '../points/points.repo.js';
import { VouchersRepo } from '../vouchers/vouchers.repo.js';
import { PurchasesRepo } from './purchases.repo.js';
import { purchasesRoutes } from './purchases.routes.js';
import { PurchasesService } from './purchases.service.js';

export const purchasesFeature: Feature = ({ node, config, clock }) =>
  purchasesRoutes(new PurchasesService(new PurchasesRepo(node.db), new PointsRepo(node.db), new VouchersRepo(node.db), clock, config.time_zone));
