import { ProgramRepo } from '../../loyalty/program.repo.js';
import { FoldConflicts } from '../../sync/fold-conflicts.js';
import type { Feature } from '../feature.js';
import { CreditPages } from './credit-pages.repo.js';
import { creditsRoutes } from './credits.routes.js';
import { CreditsService } from './credits.service.js';

export const creditsFeature: Feature = ({ node, config, clock, services }) =>
  creditsRoutes(
    new CreditsService({
      pages: new CreditPages(node.db),
      ledger: services.ledger,
      customers: services.customersRepo,
      program: new ProgramRepo(node.db, () => node.operations.asOf()),
      conflicts: new FoldConflicts(node.db, node.balances, node.newId, clock),
      writes: node.writes,
      clock,
      timeZone: config.time_zone,
    }),
  );
