import { ProgramRepo } from '../../loyalty/program.repo.js';
import { RewardsCatalog } from '../../loyalty/rewards-catalog.js';
import { FoldConflicts } from '../../sync/fold-conflicts.js';
import type { Feature } from '../feature.js';
import { BillReader } from './bill-reader.js';
import { CashDeskCampaigns } from './cash-desk-campaigns.js';
import { CheckoutRepo } from './checkout.repo.js';
import { checkoutRoutes } from './checkout.routes.js';
import { CheckoutService } from './checkout.service.js';
import { ProductMatches } from './product-matches.js';
import { PurchaseRecorder } from './purchase-recorder.service.js';
import { remoteOriginals } from './cancellations.js';
import { OriginalBills } from './original-bills.js';

export const checkoutFeature: Feature = ({ node, config, clock, services, hub }) => {
  const repo = new CheckoutRepo(node.db);
  const bills = new BillReader(repo, new ProductMatches(repo, node.writes), config.time_zone);
  const program = new ProgramRepo(node.db, () => node.operations.asOf());
  return checkoutRoutes(
    new CheckoutService(
      repo,
      bills,
      node.balances,
      program,
      new RewardsCatalog(node.db, node.writes),
      new CashDeskCampaigns(repo, node.writes),
      clock,
      (work) => node.writes.versions.reading(work),
    ),
    new PurchaseRecorder(
      repo,
      bills,
      services.customersRepo,
      services.ledger,
      program,
      new FoldConflicts(node.db, node.balances, node.newId, clock),
      node.writes,
      node.newId,
      clock,
      new OriginalBills(repo, services.ledger),
      hub && remoteOriginals(hub),
    ),
  );
};
