import type { Feature, FeaturePorts } from '../feature.js';
import { WalletRepo } from './wallet.repo.js';
import { walletRoutes } from './wallet.routes.js';
import { WalletService } from './wallet.service.js';

export const walletFeature: Feature<Pick<FeaturePorts, 'db' | 'clock' | 'timeZone' | 'ledger'>> = ({ db, clock, timeZone, ledger }) =>
  walletRoutes(new WalletService(new WalletRepo(db), ledger, clock, timeZone));
