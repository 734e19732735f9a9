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
  return purchasesRoutes(
    new PurchasesService({ repo: new PurchasesRepo(node.db), ledger: services.ledger, vouchers, presenter, clock, timeZone: config.time_zone }),
  );
};
