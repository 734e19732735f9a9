/**
 * Rewards (`/rewards`) and the vouchers made from them (`/vouchers`, `create-voucher`,
 * `apply-voucher`), with the vouchers `loyaltyd import` brings from a chain's previous system. A
 * voucher's applied state is the fold of its applications.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { StoresRepo } from '../stores/stores.repo.js';
import { VoucherIssuer } from './voucher-issuing.service.js';
import { VoucherPresenter } from './voucher-presenter.js';
import { VouchersRepo } from './vouchers.repo.js';
import { vouchersRoutes } from './vouchers.routes.js';
import { VouchersService } from './vouchers.service.js';

export const vouchersFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'timeZone' | 'ledger' | 'syncsWithHub'>> = ({
  db,
  writes,
  newId,
  clock,
  timeZone,
  ledger,
  syncsWithHub,
}) => {
  const repo = new VouchersRepo(db);
  const presenter = new VoucherPresenter(repo, new StoresRepo(db), timeZone);
  return vouchersRoutes(
    new VouchersService({
      repo,
      presenter,
      writes,
      newId,
      clock,
      timeZone,
      judgedAtTill: () => ledger.policy.judgedAtTill(),
      usesNameTheirStore: syncsWithHub,
    }),
    new VoucherIssuer({ repo, ledger, writes, newId, clock, timeZone: timeZone }),
  );
};
