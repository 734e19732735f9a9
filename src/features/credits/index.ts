/**
 * Credit records (`/credits`): reads with the customer's available credit, and the enterprise
 * actions that deposit, reduce and transfer credit, each a fact of the credit ledger folded like
 * every other balance (`src/loyalty/`).
 */
import { ProgramRepo } from '../../loyalty/program.repo.js';
import { FoldConflicts } from '../../sync/fold-conflicts.js';
import type { Feature, FeaturePorts } from '../feature.js';
import { CreditPages } from './credit-pages.repo.js';
import { creditsRoutes } from './credits.routes.js';
import { CreditsService } from './credits.service.js';

export const creditsFeature: Feature<
  Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'asOf' | 'timeZone' | 'customers' | 'ledger' | 'balances'>
> = ({ db, writes, newId, clock, asOf, timeZone, customers, ledger, balances }) =>
  creditsRoutes(
    new CreditsService({
      pages: new CreditPages(db),
      ledger,
      customers,
      program: new ProgramRepo(db, asOf),
      conflicts: new FoldConflicts(db, balances, newId, clock),
      writes,
      clock,
      timeZone,
    }),
  );
