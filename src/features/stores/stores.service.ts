import type { WritePath } from '../../db/write-path.js';
import { invalidParam, notFound } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import { toStore, toStoreDetails } from './stores.mappers.js';
import type { StoreRow, StoresRepo } from './stores.repo.js';
import type { ImportedStore, StoreBody, StoreQuery, StoresAnswer } from './stores.schemas.js';
import { featureColumns } from '../column-codecs.js';

export class StoresService {
  constructor(
    private readonly repo: StoresRepo,
    private readonly writes: WritePath,
    private readonly newId: IdGenerator,
    private readonly timeZone: string,
  ) {}

  create({ store }: StoreBody): { store_id: string } {
    const row = this.rowOf(this.newId(), store);
    this.writes.write({ kind: 'stores.create', payload: { store: row } }, (tx) => this.repo.insert(tx, row));
    return { store_id: row.id };
  }

  /** One store of an import file: master data, loaded on the hub and not queued as a command. */
  importRecord(record: ImportedStore): void {
    const id = record.store_id ?? this.newId();
    if (this.repo.storeById(id)) throw invalidParam('store_id', 'already_exists', id);
    const row = this.rowOf(id, record.store);
    this.writes.write(null, (tx) => this.repo.insert(tx, row));
  }

  private rowOf(id: string, store: StoreBody['store']) {
    return {
      id,
      store_code: store.store_code,
      name: store.name,
      partner_id: store.partner_id,
      system_id: store.system_id,
      visibility_for_customer: store.visibility_for_customer ?? 1,
      details: JSON.stringify(toStoreDetails(store)),
      state: 1,
    };
  }

  update(id: string, { store }: StoreBody): void {
    const existing = this.existingStore(id);
    const changes = {
      store_code: store.store_code,
      name: store.name,
      partner_id: store.partner_id,
      system_id: store.system_id,
      visibility_for_customer: store.visibility_for_customer ?? existing.visibility_for_customer,
      details: JSON.stringify(toStoreDetails(store, featureColumns['stores.details'](existing.details))),
    };
    this.writes.write({ kind: 'stores.update', payload: { store_id: id, store: changes } }, (tx) => this.repo.update(tx, id, changes));
  }

  list(query: StoreQuery): StoresAnswer {
    const property =
      query.property_id !== undefined && query.property_value !== undefined ? { id: query.property_id, value: query.property_value } : undefined;
    const page = this.repo.page({ visibility_for_customer: query.visible_for_customer, property }, query);
    return { stores: page.items.map((row) => toStore(row, this.timeZone)), total_items: page.total };
  }

  get(id: string) {
    return toStore(this.existingStore(id), this.timeZone);
  }

  /** The store of a path, or 404: store subresources use it too. */
  existingStore(id: string): StoreRow {
    const row = this.repo.storeById(id);
    if (!row) throw notFound('stores', id);
    return row;
  }
}
