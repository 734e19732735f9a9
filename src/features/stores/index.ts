/**
 * Stores (`/stores`), their property records and store-group records, and the store groups master
 * data loads: head office's data, written at the hub and replicated to every store.
 */
import type { Feature, FeaturePorts } from '../feature.js';
import { StoreRecordsRepo } from './store-records.repo.js';
import { storeRecordsRoutes } from './store-records.routes.js';
import { StoreRecordsService } from './store-records.service.js';
import { StoresRepo } from './stores.repo.js';
import { storesRoutes } from './stores.routes.js';
import { StoresService } from './stores.service.js';

export const storesFeature: Feature<Pick<FeaturePorts, 'db' | 'writes' | 'newId' | 'timeZone'>> = ({ db, writes, newId, timeZone }) => {
  const stores = new StoresService(new StoresRepo(db), writes, newId, timeZone);
  return [...storesRoutes(stores), ...storeRecordsRoutes(new StoreRecordsService(new StoreRecordsRepo(db), stores, writes, timeZone))];
};
