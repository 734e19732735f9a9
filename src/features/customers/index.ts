import type { Feature } from '../feature.js';
import { CardsRepo } from './cards.repo.js';
import { cardsRoutes } from './cards.routes.js';
import { CardsService } from './cards.service.js';
import { CustomerSourceRecordsRepo } from './customer-source-records.repo.js';
import { customerSourceRecordsRoutes } from './customer-source-records.routes.js';
import { CustomerSourceRecordsService } from './customer-source-records.service.js';
import { customersRoutes } from './customers.routes.js';
import { CustomersService } from './customers.service.js';

export const customersFeature: Feature = ({ node, config, clock, services }) => {
  const { customersRepo } = services;
  return [
    ...customersRoutes(
      new CustomersService({
        repo: customersRepo,
        writes: node.writes,
        newId: node.newId,
        timeZone: config.time_zone,
        passwordsAtHeadOffice: config.mode === 'store' && Boolean(config.hub.url),
      }),
    ),
    ...cardsRoutes(
      new CardsService({
        repo: new CardsRepo(node.db),
        customers: customersRepo,
        writes: node.writes,
        newId: node.newId,
        timeZone: config.time_zone,
        clock,
      }),
    ),
    ...customerSourceRecordsRoutes(
      new CustomerSourceRecordsService({
        repo: new CustomerSourceRecordsRepo(node.db),
        customers: customersRepo,
        writes: node.writes,
        newId: node.newId,
        timeZone: config.time_zone,
      }),
    ),
  ];
};
