/**
 * The resources `loyaltyd import` loads, each validated by the schema the API (or, for
 * what the API only reads, the feature's record schema) gives it, and written by the
 * feature's own service so an imported record is the one the API would have made.
 */
import type { App } from '../app.js';
import type { Config } from '../config.js';
import { CampaignsRepo } from '../features/campaigns/campaigns.repo.js';
import { ImportedCampaign } from '../features/campaigns/campaigns.schemas.js';
import { CampaignsService } from '../features/campaigns/campaigns.service.js';
import { CatalogRecordsService } from '../features/catalog/catalog-records.service.js';
import { ProductBrandsRepo } from '../features/catalog/product-brands.repo.js';
import { ProductBrandRecord } from '../features/catalog/product-brands.schemas.js';
import { ProductGroupsRepo } from '../features/catalog/product-groups.repo.js';
import { ProductGroupRecord } from '../features/catalog/product-groups.schemas.js';
import { ProductsRepo } from '../features/catalog/products.repo.js';
import { ProductRecord } from '../features/catalog/products.schemas.js';
import { CardsRepo } from '../features/customers/cards.repo.js';
import { CreateCard } from '../features/customers/cards.schemas.js';
import { CardsService } from '../features/customers/cards.service.js';
import { ImportedCustomer } from '../features/customers/customers.schemas.js';
import { CustomersService } from '../features/customers/customers.service.js';
import { StoresRepo } from '../features/stores/stores.repo.js';
import { ImportedStore } from '../features/stores/stores.schemas.js';
import { StoresService } from '../features/stores/stores.service.js';
import { RewardDefinition } from '../loyalty/program.schemas.js';
import type { Importer } from './import-file.js';

export function importers(app: App, config: Config): Record<string, Importer> {
  const { node } = app;
  const customers = new CustomersService(app.services.customersRepo, node.writes, node.newId, config.time_zone);
  const cards = new CardsService(new CardsRepo(node.db), app.services.customersRepo, node.writes, node.newId, config.time_zone);
  const storesRepo = new StoresRepo(node.db);
  const stores = new StoresService(storesRepo, node.writes, node.newId, config.time_zone);
  const catalog = new CatalogRecordsService(new ProductsRepo(node.db), new ProductGroupsRepo(node.db), new ProductBrandsRepo(node.db), storesRepo, node.writes, node.newId);
  const campaigns = new CampaignsService(new CampaignsRepo(node.db), node.writes, node.newId, config.time_zone);
  return {
    customers: { schema: ImportedCustomer, write: (record) => customers.importRecord(record as ImportedCustomer) },
    cards: { schema: CreateCard, write: (record) => cards.importRecord(record as CreateCard) },
    products: { schema: ProductRecord, write: (record) => catalog.importProduct(record as ProductRecord) },
    'product-groups': { schema: ProductGroupRecord, write: (record) => catalog.importGroup(record as ProductGroupRecord) },
    brands: { schema: ProductBrandRecord, write: (record) => catalog.importBrand(record as ProductBrandRecord) },
    stores: { schema: ImportedStore, write: (record) => stores.importRecord(record as ImportedStore) },
    // A reward's definition is kept as written, as `program load` keeps it.
    rewards: { schema: RewardDefinition, write: (record, source) => app.services.program.importReward(record as RewardDefinition, source) },
    campaigns: { schema: ImportedCampaign, write: (record) => campaigns.importRecord(record as ImportedCampaign) },
  };
}
