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
  Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'asOf' | 'timeZone' | 'customers' | 'ledger' | 'ledgers' | 'hub'>
> = ({ db, writes, newId, clock, asOf, timeZone, customers, ledger, ledgers, hub }) => {
  const repo = new CheckoutRepo(db);
  const bills = new BillReader(repo, new ProductMatches(repo, writes), timeZone);
  const program = new ProgramRepo(db, asOf);
  return checkoutRoutes(
    new CheckoutService(repo, bills, ledgers, program, new RewardsCatalog(db, writes), new CashDeskCampaigns(repo, writes), clock, (work) =>
      writes.versions.reading(work),
    ),
    new PurchaseRecorder(
      repo,
      bills,
      customers,
      ledger,
      program,
      new FoldConflicts(db, ledgers, newId, clock),
      writes,
      newId,
      clock,
      new OriginalBills(repo, ledger),
      hub && remoteOriginals(hub),
    ),
  );
};
