/** Every collection of the enterprise interface with its query schema, for tests that try each parameter. */
import type { z } from 'zod';
import { CampaignProductQuery } from '../../src/features/campaigns/campaign-products.schemas.js';
import { CampaignQuery } from '../../src/features/campaigns/campaigns.schemas.js';
import { ProductBrandQuery } from '../../src/features/catalog/product-brands.schemas.js';
import { ProductGroupQuery } from '../../src/features/catalog/product-groups.schemas.js';
import { ProductQuery } from '../../src/features/catalog/products.schemas.js';
import { CardsQuery } from '../../src/features/customers/cards.schemas.js';
import { CustomerSourceRecordsQuery } from '../../src/features/customers/customer-source-records.schemas.js';
import { CreditsQuery } from '../../src/features/credits/credits.schemas.js';
import { CustomersQuery } from '../../src/features/customers/customers.schemas.js';
import { EventGroupQuery } from '../../src/features/events/event-groups.schemas.js';
import { EventPropertyQuery } from '../../src/features/events/event-properties.schemas.js';
import { EventQuery } from '../../src/features/events/events.schemas.js';
import { OrderQuery } from '../../src/features/orders/orders.schemas.js';
import { PointsQuery } from '../../src/features/points/points.schemas.js';
import { PurchasesQuery } from '../../src/features/purchases/purchases.schemas.js';
import { ProductReservationQuery } from '../../src/features/reservations/product-reservations.schemas.js';
import { StoreQuery } from '../../src/features/stores/stores.schemas.js';
import { VouchersQuery } from '../../src/features/vouchers/vouchers.schemas.js';

export const COLLECTIONS: [path: string, query: z.ZodObject][] = [
  ['/customers', CustomersQuery],
  ['/cards', CardsQuery],
  ['/customer-source-records', CustomerSourceRecordsQuery],
  ['/stores', StoreQuery],
  ['/products', ProductQuery],
  ['/product-groups', ProductGroupQuery],
  ['/product-brands', ProductBrandQuery],
  ['/campaigns', CampaignQuery],
  ['/campaign-products', CampaignProductQuery],
  ['/vouchers', VouchersQuery],
  ['/points', PointsQuery],
  ['/credits', CreditsQuery],
  ['/purchases', PurchasesQuery],
  ['/product-reservations', ProductReservationQuery],
  ['/orders', OrderQuery],
  ['/events', EventQuery],
  ['/event-properties', EventPropertyQuery],
  ['/event-groups', EventGroupQuery],
];
