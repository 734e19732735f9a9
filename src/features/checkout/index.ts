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
    new CheckoutService({
      repo,
      bills,
      balances: node.balances,
      program,
      catalog: new RewardsCatalog(node.db, node.writes),
      campaigns: new CashDeskCampaigns(repo, node.writes),
      clock,
      reading: (work) => node.writes.versions.reading(work),
    }),
    new PurchaseRecorder({
      repo,
      bills,
      customers: services.customersRepo,
      ledger: services.ledger,
      program,
      conflicts: new FoldConflicts(node.db, node.balances, node.newId, clock),
      writes: node.writes,
      newId: node.newId,
      clock,
      originals: new OriginalBills(repo, services.ledger),
      remote: hub && remoteOriginals(hub),
    }),
  );
};
