import type { Feature } from '../feature.js';
import { VouchersRepo } from './vouchers.repo.js';
import { vouchersRoutes } from './vouchers.routes.js';
import { VouchersService } from './vouchers.service.js';

export const vouchersFeature: Feature = ({ node, config, clock }) =>
  vouchersRoutes(new VouchersService(new VouchersRepo(node.db), node.writes, node.newId, clock, config.time_zone));
