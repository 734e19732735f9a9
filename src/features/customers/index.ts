/**
 * Customers, their cards and their source records (`/customers`, `/cards`,
 * `/customer-source-records`): chain data every node holds, written at the hub or registered at a
 * store and replicated; a customer session sees only its own.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { CardsRepo } from './cards.repo.js';
import { cardsRoutes } from './cards.routes.js';
import { CardsService } from './cards.service.js';
import { CustomerSourceRecordsRepo } from './customer-source-records.repo.js';
import { customerSourceRecordsRoutes } from './customer-source-records.routes.js';
import { CustomerSourceRecordsService } from './customer-source-records.service.js';
import { customersRoutes } from './customers.routes.js';
import { CustomersService } from './customers.service.js';

export const customersFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'clock' | 'timeZone' | 'customers' | 'tokens'>> = ({
  db,
  writes,
  newId,
  clock,
  timeZone,
  customers,
  tokens,
}) => {
  return [
    ...customersRoutes(
      new CustomersService({
        repo: customers,
        writes,
        newId,
        timeZone,
      }),
      tokens,
    ),
    ...cardsRoutes(
      new CardsService({
        repo: new CardsRepo(db),
        customers,
        writes,
        newId,
        timeZone,
        clock,
      }),
    ),
    ...customerSourceRecordsRoutes(
      new CustomerSourceRecordsService({
        repo: new CustomerSourceRecordsRepo(db),
        customers,
        writes,
        newId,
        timeZone,
      }),
    ),
  ];
};
