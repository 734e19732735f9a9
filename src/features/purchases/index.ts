/**
 * Purchase reads (`/purchases`): the list, one purchase with its items, points and vouchers, and
 * its payment summary. The cash desk's calls that make purchases are in `src/features/checkout/`.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { StoresRepo } from '../stores/stores.repo.js';
import { VoucherPresenter } from '../vouchers/voucher-presenter.js';
import { VouchersRepo } from '../vouchers/vouchers.repo.js';
import { PurchasesRepo } from './purchases.repo.js';
import { purchasesRoutes } from './purchases.routes.js';
import { PurchasesService } from './purchases.service.js';

export const purchasesFeature: Feature<Pick<FeaturePorts, 'db' | 'clock' | 'timeZone' | 'ledger'>> = ({ db, clock, timeZone, ledger }) => {
  const vouchers = new VouchersRepo(db);
  const presenter = new VoucherPresenter(vouchers, new StoresRepo(db), timeZone);
  return purchasesRoutes(new PurchasesService({ repo: new PurchasesRepo(db), ledger, vouchers, presenter, clock, timeZone: timeZone }));
};
