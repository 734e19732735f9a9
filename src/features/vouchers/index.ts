import type { Feature } from '../feature.js';
import { StoresRepo } from '../stores/stores.repo.js';
import { VoucherIssuer } from './voucher-issuing.service.js';
import { VoucherPresenter } from './voucher-presenter.js';
import { VouchersRepo } from './vouchers.repo.js';
import { vouchersRoutes } from './vouchers.routes.js';
import { VouchersService } from './vouchers.service.js';

export const vouchersFeature: Feature = ({ node, config, clock, services }) => {
  const repo = new VouchersRepo(node.db);
  const presenter = new VoucherPresenter(repo, new StoresRepo(node.db), config.time_zone);
  return vouchersRoutes(
    new VouchersService({
      repo,
      presenter,
      writes: node.writes,
      newId: node.newId,
      clock,
      timeZone: config.time_zone,
      judgedAtTill: () => services.ledger.policy.judgedAtTill(),
    }),
    new VoucherIssuer({ repo, ledger: services.ledger, writes: node.writes, newId: node.newId, clock, timeZone: config.time_zone }),
  );
};
