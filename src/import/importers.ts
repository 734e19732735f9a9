/**
 * The resources `loyaltyd import` loads, each validated by the schema the API (or, for
 * what the API only reads, the feature's record schema) gives it, and written by the
 * feature's own service so an imported record is the one the API would have made.
 */
import type { App } from '../root/app.js';
import type { Config } from '../core/config.js';
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
import { PurchaseItemTypesRepo } from '../features/catalog/purchase-item-types.repo.js';
import { PurchaseItemTypeRecord } from '../features/catalog/purchase-item-types.schemas.js';
import { PurchaseItemTypesService } from '../features/catalog/purchase-item-types.service.js';
import { CardsRepo } from '../features/customers/cards.repo.js';
import { CreateCard } from '../features/customers/cards.schemas.js';
import { CardsService } from '../features/customers/cards.service.js';
import { ImportedCustomer } from '../features/customers/customers.schemas.js';
import { CustomersService } from '../features/customers/customers.service.js';
import { EventGroupsRepo } from '../features/events/event-groups.repo.js';
import { EventGroupRecord } from '../features/events/event-groups.schemas.js';
import { EventLookupsService } from '../features/events/event-lookups.service.js';
import { EventPropertiesRepo } from '../features/events/event-properties.repo.js';
import { EventPropertyRecord } from '../features/events/event-properties.schemas.js';
import { ReservationSourcesRepo } from '../features/reservations/reservation-sources.repo.js';
import { ReservationSourceRecord } from '../features/reservations/reservation-sources.schemas.js';
import { ReservationSourcesService } from '../features/reservations/reservation-sources.service.js';
import { StoreGroupsRepo } from '../features/stores/store-groups.repo.js';
import { ImportedStoreGroup, ImportedStoreGroupRecord } from '../features/stores/store-groups.schemas.js';
import { StoreGroupsService } from '../features/stores/store-groups.service.js';
import { StoresRepo } from '../features/stores/stores.repo.js';
import { ImportedStore } from '../features/stores/stores.schemas.js';
import { StoresService } from '../features/stores/stores.service.js';
import { VoucherMigrationService } from '../features/vouchers/voucher-migration.service.js';
import { VouchersRepo } from '../features/vouchers/vouchers.repo.js';
import { ImportedVoucher } from '../features/vouchers/vouchers.schemas.js';
import { RewardDefinition } from '../loyalty/program.schemas.js';
import type { Importer } from './import-file.js';

export function importers(app: App, config: Config): Record<string, Importer> {
  const { node } = app;
  const customers = new CustomersService({
    repo: app.services.customersRepo,
    writes: node.writes,
    newId: node.newId,
    timeZone: config.time_zone,
    passwordsAtHeadOffice: false,
  });
  const cards = new CardsService({
    repo: new CardsRepo(node.db),
    customers: app.services.customersRepo,
    writes: node.writes,
    newId: node.newId,
    timeZone: config.time_zone,
  });
  const storesRepo = new StoresRepo(node.db);
  const stores = new StoresService(storesRepo, node.writes, node.newId, config.time_zone);
  const catalog = new CatalogRecordsService({
    products: new ProductsRepo(node.db),
    groups: new ProductGroupsRepo(node.db),
    brands: new ProductBrandsRepo(node.db),
    stores: storesRepo,
    writes: node.writes,
    newId: node.newId,
  });
  const campaigns = new CampaignsService(new CampaignsRepo(node.db), node.writes, node.newId, config.time_zone);
  const itemTypes = new PurchaseItemTypesService(new PurchaseItemTypesRepo(node.db), node.writes, node.newId);
  const events = new EventLookupsService(new EventPropertiesRepo(node.db), new EventGroupsRepo(node.db), node.writes, node.newId);
  const reservationSources = new ReservationSourcesService(new ReservationSourcesRepo(node.db), node.writes, node.newId, config.time_zone);
  const storeGroups = new StoreGroupsService(new StoreGroupsRepo(node.db), storesRepo, node.writes, node.newId);
  const vouchers = new VoucherMigrationService(new VouchersRepo(node.db), node.writes, node.newId, config.time_zone);
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
    'purchase-item-types': { schema: PurchaseItemTypeRecord, write: (record) => itemTypes.importRecord(record as PurchaseItemTypeRecord) },
    'event-properties': { schema: EventPropertyRecord, write: (record) => events.importProperty(record as EventPropertyRecord) },
    'event-groups': { schema: EventGroupRecord, write: (record) => events.importGroup(record as EventGroupRecord) },
    'product-reservation-sources': {
      schema: ReservationSourceRecord,
      write: (record) => reservationSources.importRecord(record as ReservationSourceRecord),
    },
    'store-groups': { schema: ImportedStoreGroup, write: (record) => storeGroups.importGroup(record as ImportedStoreGroup) },
    'store-group-records': { schema: ImportedStoreGroupRecord, write: (record) => storeGroups.importGroupRecord(record as ImportedStoreGroupRecord) },
    vouchers: { schema: ImportedVoucher, write: (record) => vouchers.importRecord(record as ImportedVoucher) },
  };
}
