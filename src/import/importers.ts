/**
 * The resources `loyaltyd import` loads, each validated by the schema the API (or, for
 * what the API only reads, the feature's record schema) gives it, and written by the
 * feature's own service so an imported record is the one the API would have made.
 */
import type { IdGenerator } from '../core/ids.js';
import type { Db } from '../db/open.js';
import type { WritePath } from '../db/write-path.js';
import type { CustomersRepo } from '../features/customers/customers.repo.js';
import type { ProgramService } from '../loyalty/program.service.js';
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

/** What the importers write through. */
export interface ImportTarget {
  db: Db;
  writes: WritePath;
  newId: IdGenerator;
  timeZone: string;
  customers: CustomersRepo;
  program: Pick<ProgramService, 'importReward'>;
}

export function importers(target: ImportTarget): Record<string, Importer> {
  const { db, writes, newId, timeZone } = target;
  const customers = new CustomersService({
    repo: target.customers,
    writes,
    newId,
    timeZone,
  });
  const cards = new CardsService({
    repo: new CardsRepo(db),
    customers: target.customers,
    writes,
    newId,
    timeZone,
  });
  const storesRepo = new StoresRepo(db);
  const stores = new StoresService(storesRepo, writes, newId, timeZone);
  const catalog = new CatalogRecordsService({
    products: new ProductsRepo(db),
    groups: new ProductGroupsRepo(db),
    brands: new ProductBrandsRepo(db),
    stores: storesRepo,
    writes,
    newId,
  });
  const campaigns = new CampaignsService(new CampaignsRepo(db), writes, newId, timeZone);
  const itemTypes = new PurchaseItemTypesService(new PurchaseItemTypesRepo(db), writes, newId);
  const events = new EventLookupsService(new EventPropertiesRepo(db), new EventGroupsRepo(db), writes, newId);
  const reservationSources = new ReservationSourcesService(new ReservationSourcesRepo(db), writes, newId, timeZone);
  const storeGroups = new StoreGroupsService(new StoreGroupsRepo(db), storesRepo, writes, newId);
  const vouchers = new VoucherMigrationService(new VouchersRepo(db), writes, newId, timeZone);
  return {
    customers: { schema: ImportedCustomer, write: (record) => customers.importRecord(record as ImportedCustomer) },
    cards: { schema: CreateCard, write: (record) => cards.importRecord(record as CreateCard) },
    products: { schema: ProductRecord, write: (record) => catalog.importProduct(record as ProductRecord) },
    'product-groups': { schema: ProductGroupRecord, write: (record) => catalog.importGroup(record as ProductGroupRecord) },
    brands: { schema: ProductBrandRecord, write: (record) => catalog.importBrand(record as ProductBrandRecord) },
    stores: { schema: ImportedStore, write: (record) => stores.importRecord(record as ImportedStore) },
    // A reward's definition is kept as written, as `program load` keeps it.
    rewards: { schema: RewardDefinition, write: (record, source) => target.program.importReward(record as RewardDefinition, source) },
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
