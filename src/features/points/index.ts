import { RedemptionPolicy } from '../../loyalty/offline-risk.js';
import { ProgramRepo } from '../../loyalty/program.repo.js';
import { SyncState } from '../../sync/sync-state.js';
import type { Feature } from '../feature.js';
import { PointsRepo } from './points.repo.js';
import { pointsRoutes } from './points.routes.js';
import { PointsService } from './points.service.js';

export const pointsFeature: Feature = ({ node, config, clock, services }) => {
  const repo = new PointsRepo(node.db);
  const program = new ProgramRepo(node.db);
  const policy = new RedemptionPolicy(config, repo, new SyncState(node.db), node.identity.nodeId, clock, config.time_zone);
  return pointsRoutes(
    new PointsService(repo, node.ledgers, services.customersRepo, policy, node.writes, node.newId, clock, {
      timeZone: config.time_zone,
      validityDays: () => program.load()?.point_validity_days,
    }),
  );
};
