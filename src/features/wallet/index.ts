/**
 * The wallet's overviews (`/wallet/actions/…`, 2021 spec): what a customer earned and redeemed of
 * points and credit in an interval, their balances now and when points expire, read from the same
 * fold as every other balance. A store with a hub holds only its own facts: it answers their
 * whole totals from the customer's state, and no totals of an interval.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { WalletRepo } from './wallet.repo.js';
import { walletRoutes } from './wallet.routes.js';
import { WalletService } from './wallet.service.js';

export const walletFeature: Feature<Pick<FeaturePorts, 'db' | 'clock' | 'timeZone' | 'ledger' | 'syncsWithHub'>> = ({
  db,
  clock,
  timeZone,
  ledger,
  syncsWithHub,
}) => walletRoutes(new WalletService(new WalletRepo(db), ledger, clock, { timeZone, holdsEveryFact: !syncsWithHub }));
