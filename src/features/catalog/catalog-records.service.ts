/**
 * The catalogue as master data loads it (`loyaltyd import products|product-groups|brands`):
 * the API only reads products, groups and brands, so these are their one write path. Each
 * record keeps the id it has in the source system when it gives one, and is loaded on the
 * hub as master data, reaching stores through the change feed rather than as a command.
 */
import type { WritePath } from '../../db/write-path.js';
import { invalidParam } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { StoresRepo } from '../stores/stores.repo.js';
import type { ProductBrandsRepo } from './product-brands.repo.js';
import type { ProductBrandRecord } from './product-brands.schemas.js';
import type { ProductGroupsRepo } from './product-groups.repo.js';
import type { ProductGroupRecord } from './product-groups.schemas.js';
import type { ProductsRepo } from './products.repo.js';
import type { ProductRecord } from './products.schemas.js';

/** What CatalogRecordsService is built from. */
export interface CatalogRecordsServiceOptions {
  products: ProductsRepo;
  groups: ProductGroupsRepo;
  brands: ProductBrandsRepo;
  stores: StoresRepo;
  writes: WritePath;
  newId: IdGenerator;
}

export class CatalogRecordsService {
  private readonly products: ProductsRepo;
  private readonly groups: ProductGroupsRepo;
  private readonly brands: ProductBrandsRepo;
  private readonly stores: StoresRepo;
  private readonly writes: WritePath;
  private readonly newId: IdGenerator;

  constructor(options: CatalogRecordsServiceOptions) {
    const { products, groups, brands, stores, writes, newId } = options;
    this.products = products;
    this.groups = groups;
    this.brands = brands;
    this.stores = stores;
    this.writes = writes;
    this.newId = newId;
  }

  importProduct(record: ProductRecord): void {
    const id = record.product_id ?? this.newId();
    if (this.products.productById(id)) throw invalidParam('product_id', 'already_exists', id);
    if (record.product_group_id && !this.groups.groupById(record.product_group_id))
      throw invalidParam('product_group_id', 'not_found', record.product_group_id);
    if (record.product_brand_id && !this.brands.brandById(record.product_brand_id))
      throw invalidParam('product_brand_id', 'not_found', record.product_brand_id);
    const externalIds = Object.entries(record.external_ids ?? {}).flatMap(([listCode, codes]) => codes.map((code) => ({ listCode, code })));
    const seen = new Set<string>();
    for (const { listCode, code } of externalIds) {
      const key = JSON.stringify([listCode, code]);
      if (seen.has(key) || this.products.productByExternalId(listCode, code) !== undefined) {
        throw invalidParam(`external_ids.${listCode}`, 'already_exists', code, 'An external id names one product in its list');
      }
      seen.add(key);
    }
    const row = {
      id,
      name: record.name,
      code: record.code ?? null,
      product_group_id: record.product_group_id ?? null,
      product_brand_id: record.product_brand_id ?? null,
      additional_properties: JSON.stringify(record.additional_properties ?? []),
      state: record.state ?? 1,
    };
    this.writes.write(null, (tx) => {
      this.products.insert(tx, row);
      for (const { listCode, code } of externalIds)
        this.products.insertExternalId(tx, { id: this.newId(), product_id: id, list_code: listCode, code });
    });
  }

  importGroup(record: ProductGroupRecord): void {
    const id = record.product_group_id ?? this.newId();
    if (this.groups.groupById(id)) throw invalidParam('product_group_id', 'already_exists', id);
    const parentId = record.parent_product_group_id ?? null;
    if (parentId !== null && !this.groups.groupById(parentId)) throw invalidParam('parent_product_group_id', 'not_found', parentId);
    const storeId = record.store_id ?? null;
    if (storeId !== null && !this.stores.storeById(storeId)) throw invalidParam('store_id', 'not_found', storeId);
    const row = {
      id,
      name: record.name,
      parent_id: parentId,
      code: record.code ?? null,
      external_id: record.external_id ?? null,
      store_id: storeId,
      state: record.state ?? 1,
    };
    this.writes.write(null, (tx) => this.groups.insert(tx, row));
  }

  importBrand(record: ProductBrandRecord): void {
    const id = record.product_brand_id ?? this.newId();
    if (this.brands.brandById(id)) throw invalidParam('product_brand_id', 'already_exists', id);
    const row = { id, name: record.name, external_id: record.external_id ?? null };
    this.writes.write(null, (tx) => this.brands.insert(tx, row));
  }
}
