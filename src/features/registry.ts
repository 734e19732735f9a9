/** Every resource feature mounted by src/app.ts, one folder each. */
import { campaignsFeature } from './campaigns/index.js';
import { catalogFeature } from './catalog/index.js';
import { checkoutFeature } from './checkout/index.js';
import { creditsFeature } from './credits/index.js';
import { customersFeature } from './customers/index.js';
import { eventsFeature } from './events/index.js';
import type { Feature } from './feature.js';
import { ordersFeature } from './orders/index.js';
import { pointsFeature } from './points/index.js';
import { purchasesFeature } from './purchases/index.js';
import { recommendationsFeature } from './recommendations/index.js';
import { reservationsFeature } from './reservations/index.js';
import { storesFeature } from './stores/index.js';
import { vouchersFeature } from './vouchers/index.js';
import { walletFeature } from './wallet/index.js';

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
