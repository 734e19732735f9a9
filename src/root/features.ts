/** Every resource feature mounted by src/root/app.ts, one folder each. */
import { campaignsFeature } from '../features/campaigns/index.js';
import { catalogFeature } from '../features/catalog/index.js';
import { checkoutFeature } from '../features/checkout/index.js';
import { creditsFeature } from '../features/credits/index.js';
import { customersFeature } from '../features/customers/index.js';
import { eventsFeature } from '../features/events/index.js';
import type { Feature } from '../features/feature.js';
import { ordersFeature } from '../features/orders/index.js';
import { pointsFeature } from '../features/points/index.js';
import { purchasesFeature } from '../features/purchases/index.js';
import { recommendationsFeature } from '../features/recommendations/index.js';
import { reservationsFeature } from '../features/reservations/index.js';
import { storesFeature } from '../features/stores/index.js';
import { vouchersFeature } from '../features/vouchers/index.js';
import { walletFeature } from '../features/wallet/index.js';

export const FEATURES: Feature[] = [
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
