import type { Feature } from '../feature.js';
import { CardsRepo } from './cards.repo.js';
import { CardsService } from './cards.service.js';
import { customersRoutes } from './customers.routes.js';
import { CustomersService } from './customers.service.js';

export const customersFeature: Feature = ({ node, config, services }) => {
  return customersRoutes(
    new CustomersService(services.customersRepo, node.writes, node.newId, config.time_zone),
    new CardsService(new CardsRepo(node.db), services.customersRepo, node.writes, node.newId, config.time_zone),
  );
};
