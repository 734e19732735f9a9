/** Every feature the node serves, each handed the ports it names (src/features/feature.ts). */
import { campaignsFeature } from '../features/campaigns/index.js';
import { catalogFeature } from '../features/catalog/index.js';
import { checkoutFeature } from '../features/checkout/index.js';
import { creditsFeature } from '../features/credits/index.js';
import { customersFeature } from '../features/customers/index.js';
import { eventsFeature } from '../features/events/index.js';
import { externalApplicationsFeature } from '../features/external-applications/index.js';
import type { FeaturePorts } from '../features/feature.js';
import { ordersFeature } from '../features/orders/index.js';
import { pointsFeature } from '../features/points/index.js';
import { purchasesFeature } from '../features/purchases/index.js';
import { recommendationsFeature } from '../features/recommendations/index.js';
import { reservationsFeature } from '../features/reservations/index.js';
import { storesFeature } from '../features/stores/index.js';
import { tokensFeature } from '../features/tokens/index.js';
import { usersFeature } from '../features/users/index.js';
import { vouchersFeature } from '../features/vouchers/index.js';
import { walletFeature } from '../features/wallet/index.js';
import type { Endpoint } from '../http/endpoint.js';

const FEATURES = [
  usersFeature,
  tokensFeature,
  externalApplicationsFeature,
  customersFeature,
  storesFeature,
  catalogFeature,
  campaignsFeature,
  vouchersFeature,
  pointsFeature,
  creditsFeature,
  walletFeature,
  checkoutFeature,
  purchasesFeature,
  recommendationsFeature,
  reservationsFeature,
  ordersFeature,
  eventsFeature,
];

/** The endpoints of every feature, in the order they are mounted. */
export function featureEndpoints(ports: FeaturePorts): Endpoint[] {
  return FEATURES.flatMap((feature) => feature(ports));
}
