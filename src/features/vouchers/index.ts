/**
 * Rewards (`/rewards`) and the vouchers made from them (`/vouchers`, `create-voucher`,
 * `apply-voucher`), with the vouchers `loyaltyd import` brings from a chain's previous system. A
 * voucher's applied state is the fold of its applications.
 */
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
    new VouchersService(repo, presenter, node.writes, node.newId, clock, config.time_zone, () => services.ledger.policy.judgedAtTill()),
    new VoucherIssuer(repo, services.ledger, node.writes, node.newId, clock, config.time_zone),
  );
};
