import { BOTH, endpoint, type Endpoint } from '../../http/endpoint.js';
import {
  BalanceOverviewQuery,
  CreditsOverviewAnswer,
  ExpirationOverviewAnswer,
  ExpirationOverviewQuery,
  PointsOverviewAnswer,
} from './wallet.schemas.js';
import type { WalletService } from './wallet.service.js';

/** A customer's balances, read in both interfaces; the interval sums are facts, asked of the hub first. */
export function walletRoutes(wallet: WalletService): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      history: true,
      path: '/wallet/actions/points-overview',
      interfaces: BOTH,
      query: BalanceOverviewQuery,
      answer: PointsOverviewAnswer,
      handle: ({ query }, context) => wallet.pointsOverview(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/wallet/actions/credits-overview',
      interfaces: BOTH,
      query: BalanceOverviewQuery,
      answer: CreditsOverviewAnswer,
      handle: ({ query }, context) => wallet.creditsOverview(query, context),
    }),
    endpoint({
      method: 'get',
      history: true,
      path: '/wallet/actions/points-expiration-overview',
      interfaces: BOTH,
      query: ExpirationOverviewQuery,
      answer: ExpirationOverviewAnswer,
      handle: ({ query }, context) => wallet.pointsExpiration(query, context),
    }),
    endpoint({
      method: 'get',
      path: '/wallet/actions/credits-expiration-overview',
      interfaces: BOTH,
      query: ExpirationOverviewQuery,
      answer: ExpirationOverviewAnswer,
      handle: ({ query }, context) => wallet.creditsExpiration(query, context),
    }),
  ];
}
