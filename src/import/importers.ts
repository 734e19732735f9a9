/** The resources `loyaltyd import` loads, each validated by its API schema. */
import type { App } from '../app.js';
import type { Config } from '../config.js';
import { CardsRepo } from '../features/customers/cards.repo.js';
import { CreateCard } from '../features/customers/cards.schemas.js';
import { CardsService } from '../features/customers/cards.service.js';
import { ImportedCustomer } from '../features/customers/customers.schemas.js';
import { CustomersService } from '../features/customers/customers.service.js';
import type { Importer } from './import-file.js';

export function importers(app: App, config: Config): Record<string, Importer> {
  const { node } = app;
  const customers = new CustomersService(app.services.customersRepo, node.writes, node.newId, config.time_zone);
  const cards = new CardsService(new CardsRepo(node.db), app.services.customersRepo, node.writes, node.newId, config.time_zone);
  return {
    customers: { schema: ImportedCustomer, write: (record) => customers.importRecord(record as ImportedCustomer) },
    cards: { schema: CreateCard, write: (record) => cards.importRecord(record as CreateCard) },
  };
}
