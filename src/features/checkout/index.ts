import { ProgramRepo } from '../../loyalty/program.repo.js';
import { RewardsCatalog } from '../../loyalty/rewards-catalog.js';
import { FoldConflicts } from '../../sync/fold-conflicts.js';
import type { Feature, FeaturePorts } from '../feature.js';
import { BillReader } from './bill-reader.js';
import { CashDeskCampaigns } from './cash-desk-campaigns.js';
import { CheckoutRepo } from './checkout.repo.js';
import { checkoutRoutes } from './checkout.routes.js';
import { CheckoutService } from './checkout.service.js';
import { ProductMatches } from './product-matches.js';
import { PurchaseRecorder } from './purchase-recorder.service.js';
import { remoteOriginals } from './cancellations.js';
import { OriginalBills } from './original-bills.js';

export const checkoutFeature: Feature<
  Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'asOf' | 'timeZone' | 'customers' | 'ledger' | 'balances' | 'hub'>
> = ({ db, writes, newId, clock, asOf, timeZone, customers, ledger, balances, hub }) => {
  const repo = new CheckoutRepo(db);
  const bills = new BillReader(repo, new ProductMatches(repo, writes), timeZone);
  const program = new ProgramRepo(db, asOf);
  return checkoutRoutes(
    new CheckoutService({
      repo,
      bills,
      balances,
      program,
      catalog: new RewardsCatalog(db, writes),
      campaigns: new CashDeskCampaigns(repo, writes),
      clock,
      reading: (work) => writes.versions.reading(work),
    }),
    new PurchaseRecorder({
      repo,
      bills,
      customers,
      ledger,
      program,
      conflicts: new FoldConflicts(db, balances, newId, clock),
      writes,
      newId,
      clock,
      originals: new OriginalBills(repo, ledger),
      remote: hub && remoteOriginals(hub),
    }),
  );
};
