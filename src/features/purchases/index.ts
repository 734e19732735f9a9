/**
 * Purchase reads (`/purchases`): the list, one purchase with its items, points and vouchers, and
 * its payment summary. The cash desk's calls that make purchases are in `src/features/checkout/`.
 */
import type { Feature } from '../feature.js';
import { StoresRepo } from '../stores/stores.repo.js';
import { VoucherPresenter } from '../vouchers/voucher-presenter.js';
import { VouchersRepo } from '../vouchers/vouchers.repo.js';
import { PurchasesRepo } from './purchases.repo.js';
import { purchasesRoutes } from './purchases.routes.js';
import { PurchasesService } from './purchases.service.js';

export const purchasesFeature: Feature = ({ node, config, clock, services }) => {
  const vouchers = new VouchersRepo(node.db);
  const presenter = new VoucherPresenter(vouchers, new StoresRepo(node.db), config.time_zone);
  return purchasesRoutes(new PurchasesService(new PurchasesRepo(node.db), services.ledger, vouchers, presenter, clock, config.time_zone));
};
