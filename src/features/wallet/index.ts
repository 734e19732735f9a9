/**
 * The wallet's overviews (`/wallet/actions/…`, 2021 spec): what a customer earned and redeemed of
 * points and credit in an interval, their balances now and when points expire, read from the same
 * fold as every other balance.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { WalletRepo } from './wallet.repo.js';
import { walletRoutes } from './wallet.routes.js';
import { WalletService } from './wallet.service.js';

export const walletFeature: Feature<Pick<FeaturePorts, 'db' | 'clock' | 'timeZone' | 'ledger'>> = ({ db, clock, timeZone, ledger }) =>
  walletRoutes(new WalletService(new WalletRepo(db), ledger, clock, timeZone));
